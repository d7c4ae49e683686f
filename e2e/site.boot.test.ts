import {gzipSync} from 'node:zlib'
import type {Browser, Page, Route} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  createPosts,
  hydrated,
  openPage,
  postsOf,
  startSite,
  stopSite,
  unexpected,
  type TestServer,
} from './site.fixtures.ts'

// The page is complete server HTML; the app (React, router, styles) hydrates it at the
// visitor's first interaction. These tests hold that behaviour to what a visitor sees.
let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, postsOf('Kashmir', 3, '2024-05-30'))
})

afterAll(() => stopSite(site))

const mobile = {viewport: {width: 375, height: 740}, isMobile: true, hasTouch: true}
const isHydrated = (page: Page) =>
  page.evaluate(() => document.documentElement.dataset.hydrated === 'true')

/** Records the scripts the page requests. */
function scriptRequests(page: Page): string[] {
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  return scripts
}

/** Holds every response for `pattern` until `release` is called. */
async function holdResponses(
  page: Page,
  pattern: string,
): Promise<{release: () => void; requested: Promise<void>}> {
  let release: () => void = () => {}
  let requestedNow: () => void = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const requested = new Promise<void>((resolve) => (requestedNow = resolve))
  await page.route(pattern, async (route: Route) => {
    requestedNow()
    await released
    await route.continue()
  })
  return {release, requested}
}

describe('first load', () => {
  for (const path of ['/', '/blog', '/blog/kashmir-1', '/contact']) {
    it(`${path}: a visit that only reads fetches no script; the first interaction brings the app`, async () => {
      const {page, problems} = await openPage(site.browser, mobile)
      const scripts = scriptRequests(page)
      const response = await page.goto(`${site.server.url}${path}`, {waitUntil: 'networkidle'})
      expect(scripts).toEqual([])
      expect(await isHydrated(page)).toBe(false)
      // The inline boot script is all the JavaScript the page has so far.
      const boot =
        /<script>(\(function boot[^<]*)<\/script>/.exec(await response!.text())?.[1] ?? ''
      expect(gzipSync(boot).byteLength).toBeGreaterThan(200)
      expect(gzipSync(boot).byteLength).toBeLessThan(1500)

      await page.keyboard.press('Shift')
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
      expect(scripts.some((s) => /^\/assets\/entry\.client-[\w-]+\.js$/.test(s))).toBe(true)
      expect(unexpected(problems)).toEqual([])
    })
  }
})

describe('interacting while the app loads', () => {
  it('a tap on the menu button before the app has arrived opens the menu once it has', async () => {
    const {page, problems} = await openPage(site.browser, mobile)
    await page.goto(`${site.server.url}/`)
    const app = await holdResponses(page, '**/assets/entry.client-*.js')
    const toggle = page.getByRole('button', {name: 'Menu'})
    await toggle.tap()
    await app.requested
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    app.release()
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true')
    expect(
      await page.locator('#main-nav-links').getByRole('link', {name: 'Blog'}).isVisible(),
    ).toBe(true)
    expect(await isHydrated(page)).toBe(true)
    expect(unexpected(problems)).toEqual([])
  })

  it('a click with no pointer or key event before it (as assistive technology sends) loads the app and is replayed', async () => {
    const {page, problems} = await openPage(site.browser, mobile)
    await page.goto(`${site.server.url}/`)
    await page.evaluate(() =>
      document.querySelector<HTMLButtonElement>('button[aria-controls="main-nav-links"]')?.click(),
    )
    const toggle = page.getByRole('button', {name: 'Menu'})
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true')
    expect(unexpected(problems)).toEqual([])
  })

  it('links work as plain links before the app has arrived', async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/`)
    const app = await holdResponses(page, '**/assets/entry.client-*.js')
    await page.locator('#main-nav-links').getByRole('link', {name: 'Services'}).click()
    await page.waitForURL(/\/service$/)
    expect(await page.locator('h1').textContent()).toBe('Services')
    app.release()
    expect(unexpected(problems)).toEqual([])
  })
})

describe("home's lazy sections", () => {
  it("show 'Loading ...' while their code loads after client navigation, then their content", async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/contact`)
    await hydrated(page)
    const chunk = await holdResponses(page, '**/assets/LatestWriting-*.js')
    await page.locator('#main-nav-links').getByRole('link', {name: 'Home'}).click()
    await page.waitForURL(/\/$/)
    const latest = page.locator('section[aria-label="Latest writing"]')
    await latest.getByText('Loading ...').waitFor()
    await chunk.requested
    chunk.release()
    await latest.getByRole('heading', {name: 'Latest writing'}).waitFor()
    expect(await latest.getByText('Loading ...').count()).toBe(0)
    expect(await latest.locator('article h3').allTextContents()).toEqual([
      'Kashmir 1',
      'Kashmir 2',
      'Kashmir 3',
    ])
    expect(unexpected(problems)).toEqual([])
  })
})
