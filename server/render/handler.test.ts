import type {SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startSiteUnderTest, type SiteUnderTest} from '../../test/support/siteUnderTest.ts'
import type {SentMarkers} from '../http/sentMarkers.ts'
import type {ContentEvents} from '../live/contentEvents.ts'
import type {SiteHandler} from './handler.ts'

// The built site (npm run build) rendering the seeded content of a real lake.
let site: SiteUnderTest
let handler: SiteHandler
let owner: SanityClient
let events: ContentEvents
let markers: SentMarkers

beforeAll(async () => {
  site = await startSiteUnderTest({seed: true})
  ;({handler, owner, events, markers} = site)
})
afterAll(() => site.stop())

const get = (path: string) => site.get(path)

const seeded = 'post-ghostwriting-without-losing-your-voice'
const seededTitle = 'Ghostwriting Without Losing Your Voice, or Theirs'

describe('the render cache', () => {
  it('answers MISS, then HIT; a publish drops the pages whose queries it touched, not the others', async () => {
    for (const path of ['/services', '/blog', '/blog/ghostwriting-without-losing-your-voice']) {
      await get(path)
      expect((await get(path)).headers.get('x-cache'), path).toBe('HIT')
    }
    const messages = events.counts.messages
    await owner.patch(seeded).set({title: 'Ghostwriting, revised'}).commit()
    await vi.waitFor(() => expect(events.counts.messages).toBe(messages + 1), {timeout: 15_000})
    expect((await get('/services')).headers.get('x-cache')).toBe('HIT')
    const post = await get('/blog/ghostwriting-without-losing-your-voice')
    expect(post.headers.get('x-cache')).toBe('MISS')
    expect(await post.text()).toContain('Ghostwriting, revised')
    expect((await get('/blog')).headers.get('x-cache')).toBe('MISS')
    // A post that no cached page showed still drops the list (its tags cover every post).
    await get('/blog')
    await owner.create({
      _id: 'post-brand-new',
      _type: 'post',
      title: 'Brand new',
      slug: {_type: 'slug', current: 'brand-new'},
      date: '2099-01-01',
      category: 'General',
    })
    await vi.waitFor(() => expect(events.counts.messages).toBe(messages + 2), {timeout: 15_000})
    const list = await get('/blog')
    expect(list.headers.get('x-cache')).toBe('MISS')
    expect(await list.text()).toContain('Brand new')
    await owner.delete('post-brand-new')
    await owner.patch(seeded).set({title: seededTitle}).commit()
    await vi.waitFor(() => expect(events.counts.messages).toBe(messages + 4), {timeout: 15_000})
  })

  it('query-string parameters no route reads create no entry', async () => {
    expect((await get('/')).status).toBe(200)
    const first = handler.cached()
    for (let i = 0; i < 50; i++) expect((await get(`/?x=${i}`)).status).toBe(200)
    expect(await (await get('/?utm_source=a&x=1')).text()).toBe(await (await get('/')).text())
    expect(handler.cached()).toEqual(first)
  })

  it('keeps the blog tabs apart, and maps a made-up category to Latest', async () => {
    await get('/blog')
    await get('/blog?category=Kashmir')
    const before = handler.cached()
    // Categories are documents now (docs/site-editing.md): a made-up one is answered as Latest,
    // kept among the bounded variants, never among the pages.
    for (let i = 0; i < 20; i++) {
      const madeUp = await get(`/blog?category=none-${i}`)
      expect(madeUp.status).toBe(200)
    }
    await get('/blog?category=Kashmir&page=2')
    const after = handler.cached()
    expect(after.pages).toBe(before.pages)
    expect(after.others).toBeLessThanOrEqual(64)
    expect(before.pages).toBeGreaterThanOrEqual(3)
  })

  it('a flood of made-up addresses evicts no real page', async () => {
    const real = handler.cached().pages
    for (let i = 0; i < 100; i++) await get(`/blog/no-such-post-${i}`)
    for (const variant of ['/SERVICES', '/services//', '/Services/', '/testimonial'])
      await get(variant)
    // Searches are readers' own words: kept apart from the pages too.
    for (let i = 0; i < 100; i++) await get(`/search?q=editing+-word${i}`)
    const after = handler.cached()
    expect(after.pages).toBe(real)
    expect(after.others).toBeLessThanOrEqual(64)
    // The same search again (a reader's Back) is still answered from the cache.
    expect((await get('/search?q=editing+-word99')).headers.get('x-cache')).toBe('HIT')
    const page = await get('/blog/no-such-post-1')
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('Post not found.')
  })
})

describe("the blog's count", () => {
  // The seed: 25 posts in Latest, 8 in Kashmir.
  const cards = async (path: string) =>
    ((await (await get(path)).text()).match(/<article/g) ?? []).length

  it('renders count cards, clamped to a multiple of six and to the tab', async () => {
    expect(await cards('/blog?count=12')).toBe(12)
    expect(await cards('/blog?count=13')).toBe(12)
    expect(await cards('/blog?count=5')).toBe(6)
    expect(await cards('/blog?count=x')).toBe(6)
    expect(await cards('/blog?count=-12')).toBe(6)
    expect(await cards('/blog?count=1e3')).toBe(6)
    // Every seeded post (content/seed.ndjson).
    expect(await cards('/blog?count=600')).toBe(26)
    expect(await cards('/blog?category=Kashmir&count=12')).toBe(8)
  })

  it('the canonical address stays the tab’s', async () => {
    const html = await (await get('/blog?category=Kashmir&count=12')).text()
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/blog\?category=Kashmir"/)
  })

  it('spellings of one count are one entry; counts past the last page are variants', async () => {
    await get('/blog?count=12')
    await get('/blog?count=30')
    await get('/blog?category=Kashmir&count=12')
    const before = handler.cached()
    for (const spelling of ['13', '17', '12&x=1', '012']) await get(`/blog?count=${spelling}`)
    expect(handler.cached()).toEqual(before)
    for (let count = 36; count <= 600; count += 6) await get(`/blog?count=${count}`)
    for (let count = 18; count <= 600; count += 6)
      await get(`/blog?category=Kashmir&count=${count}`)
    const after = handler.cached()
    expect(after.pages).toBe(before.pages)
    expect(after.others).toBeLessThanOrEqual(64)
  })
})

describe("the contact relay's one-time marker", () => {
  // The rendered message, not the boot script's copy of its text.
  const toast = '<p class="site-toast">Thank you! Your message was sent.</p>'

  it('a page asked for with a live marker shows the toast once, uncached; a reload does not', async () => {
    const token = markers.issue()
    const first = await get(`/contact?sent=${token}`)
    expect(first.headers.get('cache-control')).toBe('no-store')
    const html = await first.text()
    expect(html).toMatch(/<div[^>]*role="status"[^>]*>(<!-- -->)?<p class="site-toast">Thank you!/)
    const again = await get(`/contact?sent=${token}`)
    expect(again.headers.get('cache-control')).toBe('no-cache')
    expect(await again.text()).not.toContain(toast)
    expect(await (await get('/contact')).text()).not.toContain(toast)
  })

  it('the contact form carries the relay honeypot, hidden from people and out of the tab order', async () => {
    const html = await (await get('/contact')).text()
    const honeypot = html.match(
      /<div hidden=""><label>Leave this empty(<input [^>]*>)<\/label><\/div>/,
    )
    expect(honeypot?.[1]).toContain('name="_honey"')
    expect(honeypot?.[1]).toContain('tabindex="-1"')
  })

  it('made-up markers render the plain page from the cache', async () => {
    await get('/contact')
    const before = handler.cached()
    for (let i = 0; i < 20; i++)
      expect(await (await get(`/contact?sent=x${i}`)).text()).not.toContain(toast)
    expect(handler.cached()).toEqual(before)
  })
})
