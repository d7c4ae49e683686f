import {brotliDecompressSync, gunzipSync} from 'node:zlib'
import type {LiveEvent} from '@sanity/client'
import {Hono} from 'hono'
import {Subject} from 'rxjs'
import {describe, expect, it, vi} from 'vitest'
import type {AppContext} from '../context.ts'
import {readConfig} from '../env.ts'
import {ContentEvents} from '../live/contentEvents.ts'
import {startLakeUnderTest} from '../../test/support/lakeUnderTest.ts'
import type {DiscoverySource, FeedPost, SitemapPost} from './content.ts'
import {mountDiscovery} from './feature.ts'

/**
 * The discovery routes on their own app, with content from an in-memory source we can change,
 * and live events we send (welcomed unless `welcome: false`; `events` to bring real ones).
 */
function setup(
  env: Record<string, string> = {},
  options: {welcome?: boolean; events?: ContentEvents} = {},
) {
  let posts: Array<SitemapPost & FeedPost> = [
    {
      _id: 'p1',
      slug: 'first',
      title: 'First',
      date: '2024-01-01',
      excerpt: 'One.',
      category: 'General',
      mainImage: null,
      body: [],
      _updatedAt: '2024-01-02T00:00:00Z',
    },
  ]
  let failing = false
  const calls = {sitemap: 0, feed: 0}
  let now = 0
  const feed = new Subject<LiveEvent>()
  let seq = 0
  const events = options.events ?? new ContentEvents()
  if (!options.events) {
    events.start(() => feed)
    if (options.welcome !== false) feed.next({type: 'welcome'})
  }
  const source: DiscoverySource = {
    sitemapPosts: async () => {
      calls.sitemap++
      if (failing) throw new Error('content API unreachable')
      return posts
    },
    byteLength: async () => undefined,
    feedPosts: async (limit) => {
      calls.feed++
      if (failing) throw new Error('content API unreachable')
      return posts.slice(0, limit)
    },
  }
  const ctx: AppContext = {
    config: readConfig({SITE_URL: 'https://writer.example', ...env}),
    lake: undefined,
    internalOrigin: () => 'http://127.0.0.1:1',
    contentOrigin: () => 'http://127.0.0.1:1',
    contentHeaders: () => ({}),
    contentEvents: events,
  }
  const app = new Hono()
  const feature = mountDiscovery(app, ctx, {source, now: () => now})
  return {
    app,
    ctx,
    calls,
    feature,
    publish(post: SitemapPost & FeedPost) {
      posts = [post, ...posts]
      feed.next({type: 'message', id: String(++seq), tags: ['s1:public']})
    },
    feed,
    setFailing: (value: boolean) => (failing = value),
    advance: (ms: number) => (now += ms),
  }
}

const second: SitemapPost & FeedPost = {
  _id: 'p2',
  slug: 'second',
  title: 'Second',
  date: '2024-02-01',
  excerpt: null,
  category: 'Kashmir',
  mainImage: null,
  body: [],
  _updatedAt: '2024-02-02T00:00:00Z',
}

describe('mountDiscovery', () => {
  it('serves each file with its media type', async () => {
    const {app} = setup()
    const types = {
      '/sitemap.xml': 'application/xml',
      '/robots.txt': 'text/plain',
      '/rss.xml': 'application/rss+xml',
      '/atom.xml': 'application/atom+xml',
    }
    for (const [path, type] of Object.entries(types)) {
      const response = await app.request(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`)
    }
  })

  it('builds once, then serves the cache until content changes', async () => {
    const {app, calls, publish} = setup()
    await app.request('/sitemap.xml')
    await app.request('/sitemap.xml')
    await app.request('/rss.xml')
    await app.request('/atom.xml')
    expect(calls).toEqual({sitemap: 1, feed: 2})
    publish(second)
    const sitemap = await (await app.request('/sitemap.xml')).text()
    expect(sitemap).toContain('<loc>https://writer.example/blog/second</loc>')
    expect(await (await app.request('/rss.xml')).text()).toContain(
      'https://writer.example/blog/second',
    )
    expect(calls).toEqual({sitemap: 2, feed: 3})
  })

  it('reads SITE_URL per request', async () => {
    const {app, ctx} = setup()
    await app.request('/sitemap.xml')
    ctx.config.siteUrl = 'https://moved.example'
    expect(await (await app.request('/sitemap.xml')).text()).toContain(
      '<loc>https://moved.example/</loc>',
    )
    expect(await (await app.request('/robots.txt')).text()).toContain(
      'Sitemap: https://moved.example/sitemap.xml',
    )
  })

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const {app} = setup()
    const first = await app.request('/atom.xml')
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^".+"$/)
    const again = await app.request('/atom.xml', {headers: {'if-none-match': etag ?? ''}})
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  it('compresses for clients that accept it, the same document either way', async () => {
    const {app} = setup()
    const plain = await app.request('/sitemap.xml')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toBe('Accept-Encoding')
    const text = await plain.text()
    for (const [accept, decode] of [
      ['gzip', gunzipSync],
      ['br, gzip', brotliDecompressSync],
    ] as const) {
      const response = await app.request('/sitemap.xml', {headers: {'accept-encoding': accept}})
      expect(response.headers.get('content-encoding')).toBe(accept.split(',')[0])
      expect(response.headers.get('etag')).toBe(plain.headers.get('etag'))
      expect(decode(Buffer.from(await response.arrayBuffer())).toString()).toBe(text)
    }
  })

  it('answers 503 when the content cannot be read, and recovers on the next request', async () => {
    const {app, setFailing} = setup()
    setFailing(true)
    const failed = await app.request('/rss.xml')
    expect(failed.status).toBe(503)
    expect(failed.headers.get('retry-after')).toBe('30')
    setFailing(false)
    expect((await app.request('/rss.xml')).status).toBe(200)
  })

  it('until the live events are welcomed, expires the cache after a minute instead', async () => {
    const {app, calls, advance, feed} = setup(
      {SANITY_STUDIO_PROJECT_ID: 'abc123'},
      {welcome: false},
    )
    await app.request('/sitemap.xml')
    advance(59_000)
    await app.request('/sitemap.xml')
    expect(calls.sitemap).toBe(1)
    advance(1_000)
    await app.request('/sitemap.xml')
    expect(calls.sitemap).toBe(2)
    // Welcomed: whatever was built before is dropped, and the TTL no longer applies.
    feed.next({type: 'welcome'})
    await app.request('/sitemap.xml')
    expect(calls.sitemap).toBe(3)
    advance(3_600_000)
    await app.request('/sitemap.xml')
    expect(calls.sitemap).toBe(3)
  })

  it('a restart or a failed stream drops everything; closed, it stops following', async () => {
    const {app, calls, feed, feature} = setup()
    await app.request('/sitemap.xml')
    feed.next({type: 'restart', id: '9'})
    await app.request('/sitemap.xml')
    expect(calls.sitemap).toBe(2)
    await feature.close?.()
    feed.next({type: 'message', id: '10', tags: ['s1:public']})
    await app.request('/sitemap.xml')
    expect(calls.sitemap).toBe(2)
  })

  it("with a real lake's live events, rebuilds after a published commit, not after draft edits", async () => {
    const t = await startLakeUnderTest()
    const events = new ContentEvents()
    try {
      events.start(() => t.anon.live.events())
      await vi.waitFor(() => expect(events.live).toBe(true), {timeout: 15_000})
      const {app, calls} = setup({}, {events})
      await app.request('/sitemap.xml')
      await t.owner.create({_id: 'drafts.p9', _type: 'post', title: 'Typing…'})
      await t.owner.patch('drafts.p9').set({title: 'Typing more…'}).commit()
      await t.owner.create({_id: 'p9', _type: 'post', title: 'Published'})
      await vi.waitFor(() => expect(events.counts.messages).toBeGreaterThan(0), {timeout: 15_000})
      await app.request('/sitemap.xml')
      expect(calls.sitemap).toBe(2)
      // The two draft commits sent nothing to an anonymous stream.
      expect(events.counts.messages).toBe(1)
    } finally {
      events.close()
      await t.stop()
    }
  })
})
