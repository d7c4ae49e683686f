import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {postSources, toDocument} from '../content/build-seed.ts'
import {longformPosts} from '../content/posts/longform.ts'
import {readingMinutes} from '../web/reading/readingTime.ts'
import {openPage, startSite, stopSite, unexpected, type TestServer} from './site.fixtures.ts'

/**
 * The reading comforts of a post page (issue #26) on the seeded long read, with JavaScript
 * disabled: everything is in the server's HTML.
 */
const long = toDocument(longformPosts[0])
const path = `/blog/${long.slug.current}`

/** The seed in the blog's order (date descending; the seed's dates are unique). */
const ordered = [...postSources].sort((a, b) => b.date.localeCompare(a.date))
const at = ordered.findIndex((post) => post.slug === long.slug.current)

const words = long.body
  .map((block) => block.children.map((span) => span.text).join(''))
  .reduce((sum, text) => sum + text.split(' ').filter(Boolean).length, 0)

let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite({SEED: '1'})
})

afterAll(() => stopSite(site))

async function open(url: string): Promise<{page: Page; problems: string[]}> {
  const opened = await openPage(site.browser, {javaScriptEnabled: false})
  const response = await opened.page.goto(`${site.server.url}${url}`)
  expect(response?.status()).toBe(200)
  return opened
}

describe('reading comforts on the seeded long post, without JavaScript', () => {
  it('names its date, reading time and category, and leads back to the blog', async () => {
    const {page, problems} = await open(path)
    const main = page.locator('main')
    const minutes = readingMinutes(words)
    expect(minutes).toBeGreaterThanOrEqual(5)
    await main.getByText(`${minutes} min read`, {exact: true}).first().waitFor()
    expect(await main.locator('time').first().getAttribute('datetime')).toBe(long.date)
    const category = main.getByRole('link', {name: 'Mountaineering', exact: true})
    expect(await category.getAttribute('href')).toBe('/blog?category=Mountaineering')
    expect(await main.getByRole('link', {name: '← All posts'}).getAttribute('href')).toBe('/blog')
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('has a table of contents linking to every heading by a stable id', async () => {
    const {page} = await open(path)
    const contents = page.getByRole('navigation', {name: 'Contents'})
    const headings = long.body.filter((block) => block.style.startsWith('h'))
    const texts = headings.map((block) => block.children.map((span) => span.text).join(''))
    expect(await contents.getByRole('link').allTextContents()).toEqual(texts)
    const hrefs = await contents
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect(hrefs[0]).toBe('#why-keep-a-journal-at-all')
    // Every link lands on a heading of the body with that id.
    for (const [index, href] of hrefs.entries()) {
      const target = page.locator(`main ${href}`)
      expect(await target.evaluate((el) => el.tagName)).toMatch(/^H[2-6]$/)
      expect(await target.textContent()).toBe(texts[index])
    }
    // Following one is a plain fragment link: the address says where the reader is.
    await contents.getByRole('link', {name: 'The edit', exact: true}).click()
    expect(new URL(page.url()).hash).toBe('#the-edit')
    await page.context().close()
  })

  it('ends with the previous and next posts by date and up to three related posts', async () => {
    const {page} = await open(path)
    const around = page.getByRole('navigation', {name: 'Previous and next posts'})
    const previous = ordered[at + 1]
    const next = ordered[at - 1]
    const previousLink = around.getByRole('link', {name: /Previous post/})
    const nextLink = around.getByRole('link', {name: /Next post/})
    expect(await previousLink.getAttribute('href')).toBe(`/blog/${previous.slug}`)
    expect(await previousLink.textContent()).toContain(previous.title)
    expect(await nextLink.getAttribute('href')).toBe(`/blog/${next.slug}`)
    expect(await nextLink.textContent()).toContain(next.title)

    const related = page.getByRole('region', {name: 'More in Mountaineering'})
    const expected = ordered
      .filter((post) => post.category === 'Mountaineering' && post.slug !== long.slug.current)
      .slice(0, 3)
    expect(await related.getByRole('heading', {level: 3}).allTextContents()).toEqual(
      expected.map((post) => post.title),
    )
    // Each card shows its reading time next to its date.
    expect(await related.getByText(/^\d+ min read$/).count()).toBe(3)
    await page.context().close()
  })

  it('cards on the blog show reading time; the footer links the RSS feed', async () => {
    const {page} = await open('/blog')
    const card = page.locator('main article').first()
    await card.getByText(/^\d+ min read$/).waitFor()
    const rss = page.locator('footer').getByRole('link', {name: 'RSS'})
    expect(await rss.getAttribute('href')).toBe('/rss.xml')
    // Without SMTP_URL there are no subscriptions: no form, no Subscribe link.
    expect(await page.getByRole('link', {name: 'Subscribe'}).count()).toBe(0)
    expect(await page.getByText('Get new posts by email').count()).toBe(0)
    await page.context().close()
  })
})
