import {parseFeed} from '@rowanmanning/feed-parser'
import {createClient, type SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {block, sitemapSchemaErrors, sitemapUrls} from '../server/discovery/testing.ts'
import {startTestServer} from '../test/support/server.ts'

/**
 * The discovery files against the real server and lake (issue #6): content is written through
 * the lake's HTTP API with @sanity/client, as the Studio writes it, and read back the way a
 * crawler or a feed reader would.
 */
let server: Awaited<ReturnType<typeof startTestServer>>
let owner: SanityClient
const siteUrl = 'https://writer.example'

const get = async (path: string) => {
  const response = await fetch(`${server.url}${path}`)
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
  }
}
const sitemapLocs = async () => sitemapUrls((await get('/sitemap.xml')).text).map((url) => url.loc)

function postDoc(id: string, slug: string, date: string, title: string) {
  return {
    _id: id,
    _type: 'post',
    title,
    slug: {_type: 'slug', current: slug},
    date,
    category: 'Mountaineering',
    excerpt: `About ${title}.`,
    body: [
      block('h', [['The approach']], {style: 'h2'}),
      block(
        'p',
        [
          ['We left ', []],
          ['before dawn', ['em']],
          [' and read the ', []],
          ['map', ['m']],
          ['.', []],
        ],
        {links: {m: '/blog/maps'}},
      ),
      block('q', [['The mountain decides.']], {style: 'blockquote'}),
    ],
  }
}

beforeAll(async () => {
  server = await startTestServer({SEED: '0', SITE_URL: siteUrl})
  const token = server.lake?.token
  if (!token) throw new Error('the test server has no local lake')
  owner = createClient({
    projectId: 'scriptorium',
    dataset: 'production',
    apiVersion: '2025-02-19',
    apiHost: server.url,
    useProjectHostname: false,
    useCdn: false,
    token,
  })
  await owner
    .transaction()
    .create(postDoc('post-kolahoi', 'kolahoi-north-face', '2024-06-10', 'Kolahoi, north face'))
    .create(postDoc('post-sonamarg', 'sonamarg-in-winter', '2023-12-01', 'Sonamarg in winter'))
    .create(postDoc('drafts.post-secret', 'secret-draft', '2025-01-01', 'A secret draft'))
    .commit()
})

afterAll(async () => {
  await server?.stop()
})

describe('robots.txt', () => {
  it('allows the site, disallows the Studio and the API, and points at the sitemap', async () => {
    const robots = await get('/robots.txt')
    expect(robots.status).toBe(200)
    expect(robots.type).toBe('text/plain; charset=utf-8')
    const lines = robots.text.split('\n')
    expect(lines).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Allow: /',
        'Disallow: /studio',
        'Disallow: /api',
        `Sitemap: ${siteUrl}/sitemap.xml`,
      ]),
    )
  })
})

describe('sitemap.xml', () => {
  it('is schema-valid and lists the canonical pages and published posts, never drafts or the Studio', async () => {
    const sitemap = await get('/sitemap.xml')
    expect(sitemap.status).toBe(200)
    expect(sitemap.type).toBe('application/xml; charset=utf-8')
    expect(await sitemapSchemaErrors(sitemap.text)).toEqual([])
    expect(sitemapUrls(sitemap.text).map((url) => url.loc)).toEqual([
      `${siteUrl}/`,
      `${siteUrl}/blog`,
      `${siteUrl}/services`,
      `${siteUrl}/testimonials`,
      `${siteUrl}/contact`,
      `${siteUrl}/blog/kolahoi-north-face`,
      `${siteUrl}/blog/sonamarg-in-winter`,
    ])
    expect(sitemap.text).not.toContain('secret')
    expect(sitemap.text).not.toContain('/studio')
  })

  it('gives each post its _updatedAt as lastmod', async () => {
    const stored = await owner.getDocument('post-kolahoi')
    const entry = sitemapUrls((await get('/sitemap.xml')).text).find((url) =>
      url.loc.endsWith('/kolahoi-north-face'),
    )
    expect(entry?.lastmod && Date.parse(entry.lastmod)).toBe(Date.parse(stored?._updatedAt ?? ''))
  })

  it('shows a post once it is published and drops it once it is unpublished', async () => {
    const url = `${siteUrl}/blog/new-route-on-harmukh`
    await owner.create(
      postDoc(
        'drafts.post-harmukh',
        'new-route-on-harmukh',
        '2024-07-01',
        'A new route on Harmukh',
      ),
    )
    expect(await sitemapLocs()).not.toContain(url)

    await owner.action({
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.post-harmukh',
      publishedId: 'post-harmukh',
    })
    expect(await sitemapLocs()).toContain(url)

    await owner.action({
      actionType: 'sanity.action.document.unpublish',
      draftId: 'drafts.post-harmukh',
      publishedId: 'post-harmukh',
    })
    expect(await sitemapLocs()).not.toContain(url)
  })
})

describe('rss.xml and atom.xml', () => {
  for (const [path, type] of [
    ['/rss.xml', 'application/rss+xml'],
    ['/atom.xml', 'application/atom+xml'],
  ] as const) {
    it(`${path}: parses, newest first, full content, correct dates, no drafts`, async () => {
      const response = await get(path)
      expect(response.status).toBe(200)
      expect(response.type).toBe(`${type}; charset=utf-8`)
      const feed = parseFeed(response.text)
      expect(feed.title).toBe('Zoya Mir — Blog')
      expect(feed.items.map((item) => item.url)).toEqual([
        `${siteUrl}/blog/kolahoi-north-face`,
        `${siteUrl}/blog/sonamarg-in-winter`,
      ])
      const [kolahoi] = feed.items
      expect(kolahoi.title).toBe('Kolahoi, north face')
      expect(kolahoi.description).toBe('About Kolahoi, north face.')
      expect(kolahoi.content).toBe(
        `<h2>The approach</h2><p>We left <em>before dawn</em> and read the <a href="${siteUrl}/blog/maps">map</a>.</p><blockquote>The mountain decides.</blockquote>`,
      )
      expect(kolahoi.published?.toISOString()).toBe('2024-06-10T00:00:00.000Z')
      expect(response.text).not.toContain('secret')
    })
  }

  it("atom.xml: each entry's updated is the post's _updatedAt", async () => {
    const stored = await owner.getDocument('post-sonamarg')
    const feed = parseFeed((await get('/atom.xml')).text)
    const entry = feed.items.find((item) => item.url?.endsWith('/sonamarg-in-winter'))
    expect(entry?.updated?.getTime()).toBe(Date.parse(stored?._updatedAt ?? ''))
  })

  it('follows an edit at once: the cache is dropped when content changes', async () => {
    const before = await get('/rss.xml')
    expect((await get('/rss.xml')).text).toBe(before.text)
    await owner.patch('post-sonamarg').set({title: 'Sonamarg, deep in winter'}).commit()
    const titles = parseFeed((await get('/rss.xml')).text).items.map((item) => item.title)
    expect(titles).toContain('Sonamarg, deep in winter')
    const atomTitles = parseFeed((await get('/atom.xml')).text).items.map((item) => item.title)
    expect(atomTitles).toContain('Sonamarg, deep in winter')
  })
})
