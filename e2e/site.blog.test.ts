import type {Page, Route} from 'playwright-core'
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
import type {Browser} from 'playwright-core'

// 8 Fiction, 3 Mountaineering, 13 Kashmir, 2 General, no Motorcycles: 26 posts in all, each
// category on its own run of dates so the newest-first order interleaves predictably.
const fiction = postsOf('Fiction', 8, '2024-06-30')
const mountaineering = postsOf('Mountaineering', 3, '2024-05-31')
const kashmir = postsOf('Kashmir', 13, '2024-04-30')
const general = postsOf('General', 2, '2024-03-05')
const all = [...fiction, ...mountaineering, ...kashmir, ...general]

let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, all)
})

afterAll(() => stopSite(site))

const cards = (page: Page) => page.locator('main article')
const loadMore = (page: Page) => page.getByRole('button', {name: 'Load More'})

async function clickLoadMoreUntilDone(page: Page, counts: number[]): Promise<void> {
  for (const expected of counts.slice(1)) {
    await loadMore(page).click()
    await expect.poll(() => cards(page).count()).toBe(expected)
  }
  await expect.poll(() => loadMore(page).count()).toBe(0)
}

describe('blog list', () => {
  it('Latest: six cards, then Load More adds six until all 26 show and the button goes', async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/blog`)
    await hydrated(page)
    expect(await cards(page).count()).toBe(6)
    expect(await page.locator('main article h2').allTextContents()).toEqual(
      all.slice(0, 6).map((p) => p.title),
    )
    await clickLoadMoreUntilDone(page, [6, 12, 18, 24, 26])
    expect(await page.locator('main article h2').allTextContents()).toEqual(all.map((p) => p.title))
    expect(unexpected(problems)).toEqual([])
  })

  it('tabs filter by exact category, show counts to their end, and reset to six', async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/blog`)
    await hydrated(page)
    await loadMore(page).click()
    await expect.poll(() => cards(page).count()).toBe(12)

    await page.getByRole('link', {name: 'Fiction', exact: true}).click()
    await page.waitForURL(/\/blog\?category=Fiction$/)
    await expect
      .poll(() => page.locator('main article h2').allTextContents())
      .toEqual(fiction.slice(0, 6).map((p) => p.title))
    expect(
      await page.getByRole('link', {name: 'Fiction', exact: true}).getAttribute('aria-current'),
    ).toBe('page')
    await clickLoadMoreUntilDone(page, [6, 8])

    await page.getByRole('link', {name: 'Mountaineering'}).click()
    await expect
      .poll(() => page.locator('main article h2').allTextContents())
      .toEqual(mountaineering.map((p) => p.title))
    expect(await loadMore(page).count()).toBe(0)

    await page.getByRole('link', {name: 'Motorcycles'}).click()
    await page.getByText('No posts here yet.').waitFor()
    expect(await cards(page).count()).toBe(0)

    await page.getByRole('link', {name: 'Kashmir'}).click()
    await expect.poll(() => cards(page).count()).toBe(6)
    await clickLoadMoreUntilDone(page, [6, 12, 13])
    expect(await page.locator('main article h2').allTextContents()).toEqual(
      kashmir.map((p) => p.title),
    )

    // Back to Latest: the visible count starts again at six.
    await page.getByRole('link', {name: 'Latest'}).click()
    await page.waitForURL(/\/blog$/)
    await expect.poll(() => cards(page).count()).toBe(6)
    expect(await loadMore(page).isVisible()).toBe(true)
    expect(unexpected(problems)).toEqual([])
  })

  it('Load More on a tab, then the same tab again, starts again at six', async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/blog?category=Kashmir`)
    await hydrated(page)
    await loadMore(page).click()
    await expect.poll(() => cards(page).count()).toBe(12)
    expect(new URL(page.url()).search).toBe('?category=Kashmir&count=12')
    await page.getByRole('link', {name: 'Kashmir', exact: true}).click()
    await page.waitForURL(/\/blog\?category=Kashmir$/)
    await expect.poll(() => cards(page).count()).toBe(6)
    expect(unexpected(problems)).toEqual([])
  })

  it('a tab has its own address that renders on the server', async () => {
    const response = await fetch(`${site.server.url}/blog?category=General`)
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html.match(/<article/g)).toHaveLength(2)
    expect(html).not.toContain('Load More')
  })

  it('cards: link to /blog/{slug} in a new tab, the date as "4 March 2024" in <time>, excerpt', async () => {
    // West of Greenwich, a date-only value must not show the day before.
    const {page} = await openPage(site.browser, {
      timezoneId: 'America/Los_Angeles',
      locale: 'en-US',
    })
    await page.goto(`${site.server.url}/blog?category=General`)
    await hydrated(page)
    const card = cards(page).last()
    const link = card.locator('h2 a')
    expect(await link.getAttribute('href')).toBe('/blog/general-2')
    expect(await link.getAttribute('target')).toBe('_blank')
    expect(await link.getAttribute('rel')).toBe('noopener')
    expect(await card.locator('time').getAttribute('datetime')).toBe('2024-03-04')
    expect(await card.locator('time').textContent()).toBe('4 March 2024')
    expect(await card.locator('p').textContent()).toBe('Excerpt of general-2.')

    const [popup] = await Promise.all([page.context().waitForEvent('page'), link.click()])
    await popup.waitForLoadState()
    expect(new URL(popup.url()).pathname).toBe('/blog/general-2')
    expect(await popup.locator('h1').textContent()).toBe('General 2')
  })

  it('the first response carries one page whatever the size of the blog', async () => {
    const small = (await fetch(`${site.server.url}/blog`)).text()
    await createPosts(
      site.server,
      postsOf('General', 200, '2020-01-01').map((p) => ({...p, slug: `bulk-${p.slug}`})),
    )
    const big = await (await fetch(`${site.server.url}/blog`)).text()
    expect(big.match(/<article/g)).toHaveLength(6)
    expect(Math.abs(big.length - (await small).length)).toBeLessThan(200)
  })
})

/** Holds the app's entry until `release`: the page is served by the boot script meanwhile. */
async function holdApp(page: Page): Promise<() => void> {
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/assets/entry.client-*.js', async (route: Route) => {
    await released
    await route.continue()
  })
  return release
}

const titles = (page: Page) => page.locator('main article h2').allTextContents()
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '')

// Kashmir's 13 posts: the bulk posts an earlier test adds are all General.
describe('Load More before the app', () => {
  it('adds six in place and replaces the address; the app then hydrates over it and goes on', async () => {
    const {page, problems} = await openPage(site.browser)
    const release = await holdApp(page)
    await page.goto(`${site.server.url}/blog?category=Kashmir`)
    const entries = await page.evaluate(() => history.length)
    await loadMore(page).click()
    await expect.poll(() => cards(page).count()).toBe(12)
    expect(await titles(page)).toEqual(kashmir.slice(0, 12).map((p) => p.title))
    expect(new URL(page.url()).search).toBe('?category=Kashmir&count=12')
    expect(await page.evaluate(() => history.length)).toBe(entries)
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined()

    release()
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    expect(await cards(page).count()).toBe(12)
    await loadMore(page).click()
    await expect.poll(() => cards(page).count()).toBe(13)
    expect(await loadMore(page).count()).toBe(0)
    // The button is gone: focus is on the first new card, not lost.
    expect(await focusedId(page)).toBe('card-13')
    expect(new URL(page.url()).search).toBe('?category=Kashmir&count=18')
    expect(await titles(page)).toEqual(kashmir.map((p) => p.title))
    await page.reload()
    expect(await cards(page).count()).toBe(13)
    // No hydration warning: the boot script kept the page and its payload in step.
    expect(unexpected(problems)).toEqual([])
  })
})

describe('without JavaScript', () => {
  it('Load More is a GET form: six more each time, focus on the first new card, until the end', async () => {
    const {page} = await openPage(site.browser, {javaScriptEnabled: false})
    await page.goto(`${site.server.url}/blog?category=Kashmir`)
    for (const [count, first] of [
      [12, 7],
      [13, 13],
    ]) {
      await loadMore(page).click()
      await page.waitForURL(new RegExp(`count=${Math.ceil(count / 6) * 6}#card-${first}$`))
      expect(await cards(page).count()).toBe(count)
      expect(await focusedId(page)).toBe(`card-${first}`)
    }
    expect(await titles(page)).toEqual(kashmir.map((p) => p.title))
    expect(await loadMore(page).count()).toBe(0)
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      `${site.server.config.siteUrl}/blog?category=Kashmir`,
    )
    // A tab link starts again at six.
    await page.getByRole('link', {name: 'Kashmir', exact: true}).click()
    await page.waitForURL(/\/blog\?category=Kashmir$/)
    expect(await cards(page).count()).toBe(6)
  })

  it('count is clamped to a multiple of six and to the tab', async () => {
    const {page} = await openPage(site.browser, {javaScriptEnabled: false})
    for (const [search, count, more] of [
      ['?count=7', 6, true],
      ['?count=12', 12, true],
      ['?count=25', 24, true],
      ['?category=Kashmir&count=999', 13, false],
      ['?count=nope', 6, true],
      ['?category=Mountaineering&count=12', 3, false],
    ] as const) {
      await page.goto(`${site.server.url}/blog${search}`)
      expect(await cards(page).count(), search).toBe(count)
      expect(await loadMore(page).count(), search).toBe(more ? 1 : 0)
    }
  })
})
