import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {createPosts, routePreview, type TestServer} from './site.fixtures.ts'
import {launchBrowser} from './support/browser.ts'
import {startTestServer} from './support/server.ts'
import {logIn, studioContext, watchContext} from './studio-driver.ts'

// The site's side of preview in the real Studio's Presentation tool: the framed page connects to
// the Studio (overlays), follows the owner's typing by revalidating its loaders, and a click on
// a framed field brings that field forward. The server's side (enable route, cookie, content
// proxy) is stood in for by site.fixtures.ts `routePreview`.

let server: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
let watch: ReturnType<typeof watchContext>

describe('preview mode in the Studio’s Presentation tool', () => {
  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    await createPosts(server, [
      {slug: 'first', title: 'Published title', date: '2024-06-30', category: 'Fiction'},
    ])
    browser = await launchBrowser()
    context = await studioContext(browser)
    watch = watchContext(context)
    await routePreview(context, server.httpsUrl, server, {credential: server.lake!.token})
    page = await context.newPage()
    await logIn(page, server.url, server.lake!.token)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it(
    'the frame follows typing without a reload, and a click on its title brings the title field forward',
    {timeout: 120_000},
    async () => {
      await page.goto(
        `${server.httpsUrl}/studio/presentation/post/post-first?preview=%2Fblog%2Ffirst`,
      )
      const frame = page.frameLocator('iframe')
      await frame.locator('h1', {hasText: 'Published title'}).waitFor({timeout: 30_000})
      // The overlays' connection: the Studio says so when it fails.
      await frame.locator('sanity-visual-editing').waitFor({state: 'attached'})
      await frame.locator('html').evaluate((html) => html.setAttribute('data-loaded-once', ''))

      const title = page.getByTestId('field-title').locator('input')
      await title.click()
      await title.press('End')
      await title.pressSequentially(' edited', {delay: 50})
      const typed = Date.now()
      // The issue asks for 2 s end to end; here each content read also crosses Playwright's
      // routing (the stand-in proxy), so the bound is looser and the time is logged.
      await frame.locator('h1', {hasText: 'Published title edited'}).waitFor({timeout: 5000})
      console.log(`[preview] last keystroke to the framed page: ${Date.now() - typed} ms`)
      // Revalidated in place: the same document, not a reload.
      expect(await frame.locator('html').getAttribute('data-loaded-once')).toBe('')
      // A visitor still sees the published post.
      const published = await (await fetch(`${server.url}/blog/first`)).text()
      expect(published).toContain('>Published title</h1>')

      await title.evaluate((input) => input.blur())
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY')
      await frame.locator('h1').click()
      await page.waitForFunction(
        () => document.activeElement?.closest('[data-testid="field-title"]') != null,
      )
      console.log(watch.consoleErrors)
      expect(watch.consoleErrors).toEqual([])
    },
  )
})
