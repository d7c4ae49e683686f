import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {openBrowser} from './support/sharedBrowser.ts'
import {startTestServer} from '../test/support/server.ts'
import {goInStudio, logIn, runInVision, studioContext, watchContext} from './studio-driver.ts'
import {categoryRef} from '../content/siteCopy.ts'
import {LakeView, openPost, publishCategories} from './studio-lake.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

const postId = 'post-own-origin'

/**
 * A local Studio requests nothing beyond its own origin (docs/studio-protocol.md §g.5): not
 * Sanity's font host, module CDN or feedback tunnel, which would tell sanity.io the owner's
 * address. Every other Studio test enforces the same through watchContext; this one walks each
 * tool once.
 */
describe('the local Studio stays on its own origin', () => {
  let server: Server
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let watch: ReturnType<typeof watchContext>
  let lake: LakeView
  const origins = new Map<string, number>()

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    lake = new LakeView(server.lake)
    await publishCategories(server.lake)
    await server.lake?.mutate([
      {
        create: {
          _id: postId,
          _type: 'post',
          title: 'Close to home',
          slug: {_type: 'slug', current: 'close-to-home'},
          date: '2024-03-03',
          category: categoryRef('General'),
          excerpt: 'Nothing here leaves the machine.',
        },
      },
    ])
    browser = await openBrowser()
    context = await studioContext(browser)
    watch = watchContext(context)
    context.on('request', (request) => {
      const {origin} = new URL(request.url())
      origins.set(origin, (origins.get(origin) ?? 0) + 1)
    })
    page = await context.newPage()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('logs in and opens the desk', async () => {
    await logIn(page, server.url, server.lake?.token ?? '')
    await page.getByTestId('pane-item-Posts by category').click()
    await page.locator('[data-testid^="pane-item-"]').filter({hasText: 'General'}).first().click()
    await page.getByText('Close to home').first().waitFor()
  })

  it('opens a post and types in it: the draft is saved', async () => {
    await openPost(page, lake, postId)
    const title = page.getByTestId('field-title').locator('input')
    await title.click()
    await title.press('End')
    await page.keyboard.type(', really')
    await lake.until(
      `drafts.${postId}`,
      (post) => post?.title === 'Close to home, really',
      'the typed title in the draft',
    )
  })

  it('runs a query in Vision', async () => {
    await runInVision(page, '*[_type == "post"]{title}')
    await page.getByTestId('vision-result').getByText('Close to home').first().waitFor()
  })

  it('opens the Presentation tool: its secret, its frame and its live events', async () => {
    const liveEvents = page.waitForRequest(
      (request) =>
        request.url().includes('/data/live/events/') && request.url().includes('includeDrafts'),
    )
    const enabled = page.waitForResponse((response) =>
      response.url().includes('/api/preview/enable'),
    )
    // The enable route redirects the frame to the site's page, in preview.
    const framed = page.waitForEvent(
      'framenavigated',
      (frame) =>
        frame !== page.mainFrame() &&
        !frame.url().includes('/api/preview/') &&
        frame.url() !== 'about:blank',
    )
    await goInStudio(page, '/studio/presentation')
    expect((await enabled).status()).toBe(303)
    const frame = await framed
    await frame.waitForLoadState('load')
    await liveEvents
    // The tool wrote its preview-URL secret through the lake.
    const secrets = await server.lake?.query<string[]>(
      '*[_type == "sanity.previewUrlSecret"]._id',
      {},
      {authenticated: true},
    )
    expect(secrets?.length).toBeGreaterThan(0)
  })

  it('made every request to its own origin (and *.localhost), and no console error', () => {
    const studio = new URL(server.httpsUrl)
    const sdk = `https://scriptorium.localhost:${studio.port}`
    expect(watch.foreignRequests).toEqual([])
    // The plain listener only for the first visit (it redirects to the HTTPS one).
    for (const origin of origins.keys()) expect([server.url, studio.origin, sdk]).toContain(origin)
    expect(origins.get(studio.origin)).toBeGreaterThan(100)
    expect(watch.consoleErrors).toEqual([])
  })
})
