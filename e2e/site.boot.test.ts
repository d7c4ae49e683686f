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
        /<script>(\(\(options\) => \{[^<]*)<\/script>/.exec(await response!.text())?.[1] ?? ''
      expect(gzipSync(boot).byteLength).toBeGreaterThan(200)
      expect(gzipSync(boot).byteLength).toBeLessThan(3000)

      // Reading is not an interaction: scrolling brings no script.
      await page.mouse.wheel(0, 400)
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
      expect(scripts).toEqual([])

      await page.keyboard.press('Shift')
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
      expect(scripts.some((s) => /^\/assets\/entry\.client-[\w-]+\.js$/.test(s))).toBe(true)
      expect(unexpected(problems)).toEqual([])
    })
  }
})

const menuOpen = (page: Page) =>
  page.locator('#main-nav-links').evaluate((list) => list.matches(':popover-open'))

describe('interacting while the app loads', () => {
  it('a tap on the menu button opens the menu at once; the app then hydrates without toggling it back', async () => {
    const {page, problems} = await openPage(site.browser, mobile)
    await page.goto(`${site.server.url}/`)
    const app = await holdResponses(page, '**/assets/entry.client-*.js')
    const toggle = page.getByRole('button', {name: 'Menu'})
    await toggle.tap()
    expect(await menuOpen(page)).toBe(true)
    // The tap also asks for the app, once the browser is idle.
    await app.requested
    expect(await isHydrated(page)).toBe(false)
    app.release()
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    expect(await menuOpen(page)).toBe(true)
    await toggle.tap()
    expect(await menuOpen(page)).toBe(false)
    expect(unexpected(problems)).toEqual([])
  })

  it('a click with no pointer or key event before it (as assistive technology sends) works and loads the app', async () => {
    const {page, problems} = await openPage(site.browser, mobile)
    await page.goto(`${site.server.url}/`)
    await page.evaluate(() =>
      document.querySelector<HTMLButtonElement>('button[aria-controls="main-nav-links"]')?.click(),
    )
    expect(await menuOpen(page)).toBe(true)
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
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
