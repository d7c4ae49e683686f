import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {logIn, startStudio, type StudioUnderTest} from './studio-driver.ts'

/**
 * The Studio's default search strategy ('groq2024') sends `text::query()` and `score()`; the lake
 * answers them (server/lake/textQuery/). The seed's ghostwriting post says "surgeon" only in its body.
 */
describe("the Studio's search box", () => {
  let running: StudioUnderTest

  beforeAll(async () => {
    running = await startStudio()
  })
  afterAll(async () => {
    await running?.stop()
  })

  it('finds a post by a word of its body, typed as a prefix, with no console error', async () => {
    const {server, page, watch} = running
    await logIn(page, server.url, server.lake?.token ?? '')
    const searches: string[] = []
    page.on('request', (request) => {
      const url = request.url()
      if (url.includes('/data/query/') && url.includes('text%3A%3Aquery')) searches.push(url)
    })
    await page.getByTestId('studio-search').click()
    await page.keyboard.type('surge')
    const results = page.getByTestId('search-results')
    await results
      .getByText('Ghostwriting Without Losing Your Voice')
      .first()
      .waitFor({timeout: 60_000})
    expect(
      await results.getByText('Ghostwriting Without Losing Your Voice').count(),
    ).toBeGreaterThan(0)
    // The default strategy, not the legacy one, asked.
    expect(searches.length).toBeGreaterThan(0)
    expect(watch.consoleErrors).toEqual([])
    expect(watch.foreignRequests).toEqual([])
  })
})
