import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  hydrated,
  openPage,
  startSite,
  stopSite,
  unexpected,
  withoutApp,
  type TestServer,
} from './site.fixtures.ts'

let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
})

afterAll(() => stopSite(site))

async function inbox(): Promise<
  Array<{name: string; email: string; message: string; page: string}>
> {
  return site.server.lake!.query(
    '*[_type == "contactMessage"] | order(receivedAt asc){name, email, message, page}',
    {},
    {authenticated: true},
  )
}

async function fill(page: Page, name: string): Promise<void> {
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(`${name.toLowerCase()}@example.com`)
  await page.getByLabel('Message').fill(`Hello from ${name}.`)
}

const thanks = 'Thank you! Your message was sent.'

/** The toast's own animation (Toast.tsx): when it hides the message, read and driven by its clock. */
async function toastHidesAt(page: Page): Promise<{delay: number; at3900: string; at4100: string}> {
  return page.evaluate(() => {
    const message = document.querySelector('.site-toast')
    const animation = message?.getAnimations()[0]
    if (!message || !animation) throw new Error('no toast animation')
    const delay = Number(animation.effect?.getComputedTiming().delay)
    animation.pause()
    animation.currentTime = 3900
    const at3900 = getComputedStyle(message).visibility
    animation.currentTime = 4100
    const at4100 = getComputedStyle(message).visibility
    return {delay, at3900, at4100}
  })
}

describe('contact', () => {
  it('with JavaScript: sends without leaving the page, shows the toast for exactly 4000 ms, clears the fields', async () => {
    const {page, problems} = await openPage(site.browser)
    await page.clock.install()
    await page.goto(`${site.server.url}/contact`)
    await hydrated(page)
    expect(await page.locator('h1').textContent()).toBe('Say Hello')
    // From here on, time moves only when the test says so.
    await page.clock.pauseAt(Date.now() + 60_000)
    await fill(page, 'Amina')
    await page.getByRole('button', {name: 'Send'}).click()
    const toast = page.getByText('Thank you! Your message was sent.')
    await toast.waitFor()
    expect(new URL(page.url()).pathname).toBe('/contact')
    for (const label of ['Name', 'Email', 'Message'])
      expect(await page.getByLabel(label).inputValue()).toBe('')
    await page.clock.runFor(3999)
    expect(await toast.isVisible()).toBe(true)
    await page.clock.runFor(1)
    expect(await toast.count()).toBe(0)
    expect(await inbox()).toEqual([
      {
        name: 'Amina',
        email: 'amina@example.com',
        message: 'Hello from Amina.',
        page: `${site.server.url}/contact`,
      },
    ])
    expect(unexpected(problems)).toEqual([])
  })

  it('all three fields are required, the email is type-checked, the message has 4 rows', async () => {
    const {page} = await openPage(site.browser)
    await page.goto(`${site.server.url}/contact`)
    await hydrated(page)
    for (const label of ['Name', 'Email', 'Message'])
      expect(await page.getByLabel(label).getAttribute('required')).toBe('')
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email')
    expect(await page.getByLabel('Message').getAttribute('rows')).toBe('4')
    await page.getByLabel('Name').fill('Nobody')
    await page.getByLabel('Email').fill('not-an-address')
    await page.getByLabel('Message').fill('x')
    await page.getByRole('button', {name: 'Send'}).click()
    expect(
      await page
        .getByLabel('Email')
        .evaluate((input: HTMLInputElement) => input.validity.typeMismatch),
    ).toBe(true)
    expect(await inbox()).toHaveLength(1)
  })

  it('before any script file has loaded: the boot script sends, shows the toast for 4000 ms, clears the fields', async () => {
    const {page, problems} = await openPage(site.browser)
    await page.clock.install()
    const scripts = await withoutApp(page)
    await page.goto(`${site.server.url}/contact`)
    await page.clock.pauseAt(Date.now() + 60_000)
    // fill() types no keys: the app is not even asked for until the tap on Send.
    await fill(page, 'Chanda')
    await page.getByRole('button', {name: 'Send'}).click()
    const toast = page.getByRole('status').getByText(thanks)
    await toast.waitFor()
    expect(new URL(page.url()).pathname).toBe('/contact')
    for (const label of ['Name', 'Email', 'Message'])
      expect(await page.getByLabel(label).inputValue()).toBe('')
    await page.clock.runFor(3999)
    expect(await toast.isVisible()).toBe(true)
    await page.clock.runFor(1)
    expect(await toast.count()).toBe(0)
    expect(scripts.every((path) => path.startsWith('/assets/'))).toBe(true)
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined()
    expect((await inbox()).map((m) => m.name)).toEqual(['Amina', 'Chanda'])
    await page.reload()
    await page.getByRole('heading', {name: 'Say Hello'}).waitFor()
    expect(await page.getByText(thanks).count()).toBe(0)
    expect(unexpected(problems)).toEqual([])
  })

  it('with JavaScript, after the toast, a reload shows no toast', async () => {
    const {page} = await openPage(site.browser)
    await page.goto(`${site.server.url}/contact`)
    await hydrated(page)
    await fill(page, 'Dara')
    await page.getByRole('button', {name: 'Send'}).click()
    await page.getByRole('status').getByText(thanks).waitFor()
    await page.reload()
    await page.getByRole('heading', {name: 'Say Hello'}).waitFor()
    expect(await page.getByText(thanks).count()).toBe(0)
  })

  it('without JavaScript: the native POST comes back with the toast for 4000 ms, once', async () => {
    const {page} = await openPage(site.browser, {javaScriptEnabled: false})
    await page.goto(`${site.server.url}/contact`)
    await fill(page, 'Esa')
    await page.getByRole('button', {name: 'Send'}).click()
    await page.waitForURL(/\/contact\?sent=/)
    const toast = page.getByRole('status').getByText(thanks)
    expect(await toast.isVisible()).toBe(true)
    for (const label of ['Name', 'Email', 'Message'])
      expect(await page.getByLabel(label).inputValue()).toBe('')
    expect(await toastHidesAt(page)).toEqual({delay: 4000, at3900: 'visible', at4100: 'hidden'})
    await page.reload()
    await page.getByRole('heading', {name: 'Say Hello'}).waitFor()
    expect(await page.getByText(thanks).count()).toBe(0)
  })

  it('without JavaScript: the native POST lands back on the contact page', async () => {
    const {page} = await openPage(site.browser, {javaScriptEnabled: false})
    await page.goto(`${site.server.url}/contact`)
    await fill(page, 'Bilal')
    // The relay answers the POST with a redirect to _next; wait for that redirected request.
    const [back] = await Promise.all([
      page.waitForRequest((request) => request.redirectedFrom()?.method() === 'POST'),
      page.getByRole('button', {name: 'Send'}).click(),
    ])
    expect(back.redirectedFrom()?.url()).toBe(`${site.server.url}/api/contact`)
    await page.waitForLoadState()
    expect(new URL(page.url()).pathname).toBe('/contact')
    expect(await page.locator('h1').textContent()).toBe('Say Hello')
    const stored = await inbox()
    expect(stored.map((m) => m.name)).toEqual(['Amina', 'Chanda', 'Dara', 'Esa', 'Bilal'])
  })
})
