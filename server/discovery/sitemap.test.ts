import {describe, expect, it} from 'vitest'
import {buildRobots} from './robots.ts'
import {buildSitemap, escapeXml} from './sitemap.ts'
import {sitemapSchemaErrors, sitemapUrls} from './testing.ts'

const siteUrl = 'https://writer.example'
const posts = [
  {slug: 'newest', _updatedAt: '2024-06-01T12:00:00Z'},
  {slug: 'a&b "quoted"', _updatedAt: '2024-03-06T09:30:00.123Z'},
  {slug: 'newest', _updatedAt: '2023-01-01T00:00:00Z'},
]

describe('buildSitemap', () => {
  it('is valid against the sitemap 0.9 schema', async () => {
    expect(await sitemapSchemaErrors(buildSitemap(posts, siteUrl))).toEqual([])
    expect(await sitemapSchemaErrors(buildSitemap([], siteUrl))).toEqual([])
  })

  it('lists the pages at their canonical addresses, then each post once, with lastmod', () => {
    expect(sitemapUrls(buildSitemap(posts, siteUrl))).toEqual([
      {loc: 'https://writer.example/'},
      {loc: 'https://writer.example/blog', lastmod: '2024-06-01T12:00:00Z'},
      {loc: 'https://writer.example/services'},
      {loc: 'https://writer.example/testimonials'},
      {loc: 'https://writer.example/contact'},
      {loc: 'https://writer.example/blog/newest', lastmod: '2024-06-01T12:00:00Z'},
      {
        loc: 'https://writer.example/blog/a%26b%20%22quoted%22',
        lastmod: '2024-03-06T09:30:00.123Z',
      },
    ])
  })

  it('follows SITE_URL, including a base path', () => {
    const locs = sitemapUrls(buildSitemap(posts.slice(0, 1), 'https://example.org/writer')).map(
      (u) => u.loc,
    )
    expect(locs).toContain('https://example.org/writer/')
    expect(locs).toContain('https://example.org/writer/blog/newest')
  })

  it('never lists the Studio or the singular routes', () => {
    const xml = buildSitemap(posts, siteUrl)
    for (const path of ['/studio', '/service<', '/testimonial<']) expect(xml).not.toContain(path)
  })

  it('escapes XML in every value', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;',
    )
  })
})

describe('buildRobots', () => {
  it('allows the site, keeps crawlers out of the Studio and the API, and names the sitemap', () => {
    expect(buildRobots(siteUrl)).toBe(
      'User-agent: *\nAllow: /\nDisallow: /studio\nDisallow: /api\n\nSitemap: https://writer.example/sitemap.xml\n',
    )
  })
})
