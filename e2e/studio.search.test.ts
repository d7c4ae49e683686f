import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {launchBrowser} from '../scripts/browser.ts'
import {startTestServer} from '../test/support/server.ts'
import {logIn, studioContext, watchContext} from './studio-driver.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/**
 * The Studio's default search strategy ('groq2024') sends `text::query()` and `score()`; the lake
 * answers them (server/lake/textQuery/). The seed's ghostwriting post says "surgeon" only in its body.
 */
describe("the Studio's search box", () => {
  let server: Server
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let watch: ReturnType<typeof watchContext>

  beforeAll(async () => {
    server = await startTestServer()
    browser = await launchBrowser()
    context = await studioContext(browser)
    watch = watchContext(context)
    page = await context.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('finds a post by a word of its body, typed as a prefix, with no console error', async () => {
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
