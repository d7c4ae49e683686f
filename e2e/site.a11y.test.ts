import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {axe} from './support/axe.ts'
import {
  block,
  createPosts,
  hydrated,
  openPage,
  postsOf,
  startSite,
  stopSite,
  unexpected,
  withoutApp,
  type TestServer,
} from './site.fixtures.ts'

let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, [
    ...postsOf('Fiction', 7, '2024-06-30'),
    {
      slug: 'rich',
      title: 'A Rich Post',
      date: '2024-07-01',
      category: 'Kashmir',
      body: [
        block('p', 'Opening words.'),
        block('h1', 'A section', {style: 'h1'}),
        block('h2', 'A subsection', {style: 'h2'}),
        block('h3', 'A further subsection', {style: 'h3'}),
        block('q', 'A quotation.', {style: 'blockquote'}),
        block('l', 'A bullet', {listItem: 'bullet'}),
        block('n', 'A step', {listItem: 'number'}),
        block('m', 'Some code', {marks: ['code']}),
      ],
    },
    // Before and beside the rich post: its previous link and a related card.
    {slug: 'plain', title: 'A Plain Post', date: '2024-06-01', category: 'Kashmir'},
  ])
})

afterAll(() => stopSite(site))

const routes = [
  {path: '/', ready: 'What clients say'},
  {path: '/service'},
  {path: '/testimonial'},
  {path: '/blog'},
  {path: '/blog?category=Kashmir'},
  {path: '/blog/rich'},
  {path: '/blog/missing', status: 404},
  {path: '/contact'},
  {path: '/search?q=fiction'},
  {path: '/search?q=zeppelin'},
  {path: '/subscribed'},
  {path: '/no/such/page', status: 404},
]

const desktop = {viewport: {width: 1350, height: 940}}
const phone = {viewport: {width: 375, height: 740}, isMobile: true, hasTouch: true}
// Both colour schemes: the dark palette's contrast is checked by axe as the light one is.
const viewports = [
  {name: 'desktop', options: {...desktop, colorScheme: 'light' as const}},
  {name: '375 px', options: {...phone, colorScheme: 'light' as const}},
  {name: 'desktop, dark', options: {...desktop, colorScheme: 'dark' as const}},
  {name: '375 px, dark', options: {...phone, colorScheme: 'dark' as const}},
]

for (const viewport of viewports) {
  describe(`accessibility and console at ${viewport.name}`, () => {
    for (const route of routes) {
      it(`${route.path}: no axe violations, no console errors or hydration warnings`, async () => {
        const {page, problems} = await openPage(site.browser, viewport.options)
        const response = await page.goto(`${site.server.url}${route.path}`)
        expect(response?.status()).toBe(route.status ?? 200)
        await hydrated(page)
        if (route.ready) await page.getByRole('heading', {name: route.ready}).waitFor()
        expect(await axe(page)).toEqual([])
        expect(unexpected(problems, route.status === 404)).toEqual([])
        await page.context().close()
      })
    }

    it('an open footer modal and the open mobile menu have no axe violations', async () => {
      const {page, problems} = await openPage(site.browser, viewport.options)
      await page.goto(`${site.server.url}/contact`)
      await hydrated(page)
      const menu = page.getByRole('button', {name: 'Menu'})
      if (await menu.isVisible()) {
        await menu.click()
        expect(await axe(page)).toEqual([])
        await menu.click()
      }
      await page.getByRole('button', {name: 'privacy'}).click()
      await page.getByRole('dialog').waitFor()
      expect(await axe(page)).toEqual([])
      expect(unexpected(problems)).toEqual([])
      await page.context().close()
    })
  })
}

describe('accessibility of the states first taps reach, before any script file has loaded', () => {
  it('the open menu, an open modal, Load More done, the toast: no axe violations', async () => {
    const {page, problems} = await openPage(site.browser, phone)
    await withoutApp(page)
    await page.goto(`${site.server.url}/blog`)
    await page.getByRole('button', {name: 'Menu'}).tap()
    expect(await axe(page)).toEqual([])
    await page.keyboard.press('Escape')
    await page.getByRole('button', {name: 'client'}).tap()
    await page.getByRole('dialog').waitFor()
    expect(await axe(page)).toEqual([])
    await page.keyboard.press('Escape')
    await page.getByRole('button', {name: 'Load More'}).tap()
    // Every post: seven of Fiction, the rich post and the plain one.
    await expect.poll(() => page.locator('main article').count()).toBe(9)
    expect(await axe(page)).toEqual([])
    await page.goto(`${site.server.url}/contact`)
    await page.getByLabel('Name').fill('Amina')
    await page.getByLabel('Email').fill('amina@example.com')
    await page.getByLabel('Message').fill('Hello.')
    await page.getByRole('button', {name: 'Send'}).tap()
    await page.getByRole('status').getByText('Thank you!').waitFor()
    expect(await axe(page)).toEqual([])
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('the toast the server renders after a native post: no axe violations', async () => {
    // axe needs script; the page is the one a no-JavaScript visitor gets (the app held back).
    const {page, problems} = await openPage(site.browser)
    await withoutApp(page)
    await page.goto(`${site.server.url}/contact`)
    await page.getByLabel('Name').fill('Bilal')
    await page.getByLabel('Email').fill('bilal@example.com')
    await page.getByLabel('Message').fill('Hello.')
    // form.submit() fires no submit event: a native post, as without JavaScript.
    await Promise.all([
      page.waitForURL(/\/contact/, {waitUntil: 'load'}),
      page.locator('main form').evaluate((form: HTMLFormElement) => form.submit()),
    ])
    await page.getByRole('status').getByText('Thank you!').waitFor()
    expect(await axe(page)).toEqual([])
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })
})
