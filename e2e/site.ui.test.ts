import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  appStates,
  createPosts,
  hydrated,
  inState,
  mobile,
  openPage,
  postsOf,
  startSite,
  stopSite,
  unexpected,
  type TestServer,
} from './site.fixtures.ts'

let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, postsOf('Fiction', 4, '2024-06-30'))
})

afterAll(() => stopSite(site))

const focusedText = (page: Page) =>
  page.evaluate(() => document.activeElement?.textContent?.trim() ?? null)
const focusInDialog = (page: Page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))

const menuOpen = (page: Page) =>
  page.locator('#main-nav-links').evaluate((list) => list.matches(':popover-open'))

for (const state of appStates) {
  describe(`the mobile menu, ${state.name}`, () => {
    it('at 375 px the hamburger button opens and closes the links; Esc and a link close them', async () => {
      const {page, problems} = await openPage(site.browser, mobile)
      await inState(page, state, `${site.server.url}/`)
      const toggle = page.getByRole('button', {name: 'Menu'})
      const blogLink = page.locator('#main-nav-links').getByRole('link', {name: 'Blog'})
      expect(await toggle.getAttribute('aria-controls')).toBe('main-nav-links')
      expect(await toggle.getAttribute('popovertarget')).toBe('main-nav-links')
      expect(await blogLink.isVisible()).toBe(false)
      await toggle.tap()
      expect(await menuOpen(page)).toBe(true)
      expect(await blogLink.isVisible()).toBe(true)
      await toggle.tap()
      expect(await menuOpen(page)).toBe(false)
      expect(await blogLink.isVisible()).toBe(false)
      await toggle.tap()
      await page.keyboard.press('Escape')
      expect(await blogLink.isVisible()).toBe(false)
      await toggle.tap()
      await blogLink.tap()
      await page.waitForURL(/\/blog$/)
      await page.locator('h1', {hasText: 'Blog'}).waitFor()
      expect(await menuOpen(page)).toBe(false)
      expect(await blogLink.isVisible()).toBe(false)
      expect(unexpected(problems)).toEqual([])
    })
  })
}

describe('navigation', () => {
  it('on a desktop the links show and the hamburger does not', async () => {
    const {page} = await openPage(site.browser, {viewport: {width: 1280, height: 800}})
    await page.goto(`${site.server.url}/`)
    expect(await page.getByRole('button', {name: 'Menu'}).isVisible()).toBe(false)
    for (const name of ['Home', 'Blog', 'Services', 'Testimonials', 'Contact', 'Search']) {
      expect(
        await page.locator('#main-nav-links').getByRole('link', {name, exact: true}).isVisible(),
      ).toBe(true)
    }
    expect(
      await page
        .locator('#main-nav-links a')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(['/', '/blog', '/service', '/testimonial', '/contact', '/search'])
  })

  it('every route change scrolls to the top', async () => {
    const {page} = await openPage(site.browser, mobile)
    await page.goto(`${site.server.url}/`)
    await hydrated(page)
    const more = page.getByRole('link', {name: 'More testimonials'})
    await more.scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300)
    await more.click()
    await page.locator('h1', {hasText: 'Testimonials'}).waitFor()
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
  })
})

describe('home', () => {
  it("hero, intro, a button to the blog, and two lazy sections that replace 'Loading ...'", async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/`)
    expect(await page.locator('h1').textContent()).toBe('Zoya Mir')
    await page.getByRole('heading', {name: 'Latest writing'}).waitFor()
    await page.getByRole('heading', {name: 'What clients say'}).waitFor()
    expect(await page.getByText('Loading ...').count()).toBe(0)
    expect(
      await page.locator('section[aria-label="Latest writing"] article h3').allTextContents(),
    ).toEqual(['Fiction 1', 'Fiction 2', 'Fiction 3'])
    await page.getByRole('link', {name: 'Read the blog'}).click()
    await page.waitForURL(/\/blog$/)
    expect(unexpected(problems)).toEqual([])
  })
})

for (const state of appStates) {
  describe(`footer modals, ${state.name}`, () => {
    it('me: the close button closes it, a click inside does not, focus returns to the opener', async () => {
      const {page, problems} = await openPage(site.browser)
      await inState(page, state, `${site.server.url}/service`)
      const opener = page.getByRole('button', {name: 'me', exact: true})
      await opener.click()
      const dialog = page.getByRole('dialog', {name: 'About me'})
      await dialog.waitFor()
      expect(await dialog.textContent()).toContain('public-domain vintage artwork')
      expect(await focusInDialog(page)).toBe(true)
      await dialog.getByText('public-domain vintage artwork').click()
      expect(await dialog.isVisible()).toBe(true)
      await dialog.getByRole('button', {name: 'Close'}).click()
      expect(await page.getByRole('dialog').count()).toBe(0)
      expect(await focusedText(page)).toBe('me')
      // Opened again, it opens once: no double toggle between the browser and the app.
      await opener.click()
      await dialog.waitFor()
      expect(await page.locator('dialog[open]').count()).toBe(1)
      expect(unexpected(problems)).toEqual([])
    })

    it('privacy: Esc closes it; Tab and Shift+Tab keep focus inside', async () => {
      const {page, problems} = await openPage(site.browser)
      await inState(page, state, `${site.server.url}/service`)
      await page.getByRole('button', {name: 'privacy'}).click()
      const dialog = page.getByRole('dialog', {name: 'Privacy'})
      await dialog.waitFor()
      expect(await dialog.textContent()).toContain('No personal data is collected')
      expect(await dialog.textContent()).toContain('confidential')
      // What subscribing keeps, and that unsubscribing deletes it (issue #26).
      expect(await dialog.textContent()).toContain('salted hash')
      expect(await dialog.textContent()).toContain('without credit or permission')
      for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Tab']) {
        await page.keyboard.press(key)
        expect(await focusInDialog(page)).toBe(true)
      }
      await page.keyboard.press('Escape')
      expect(await page.getByRole('dialog').count()).toBe(0)
      expect(await focusedText(page)).toBe('privacy')
      expect(unexpected(problems)).toEqual([])
    })

    it('client: a tap on the backdrop closes it', async () => {
      const {page, problems} = await openPage(site.browser, mobile)
      await inState(page, state, `${site.server.url}/service`)
      await page.getByRole('button', {name: 'client'}).tap()
      const dialog = page.getByRole('dialog', {name: 'For clients'})
      await dialog.waitFor()
      expect(await dialog.textContent()).toContain('by email')
      await page.touchscreen.tap(5, 5)
      expect(await page.getByRole('dialog').count()).toBe(0)
      expect(await focusedText(page)).toBe('client')
      expect(unexpected(problems)).toEqual([])
    })
  })
}
