import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  hydrated,
  openPage,
  startSite,
  stopSite,
  unexpected,
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
    expect(stored.map((m) => m.name)).toEqual(['Amina', 'Bilal'])
  })
})
