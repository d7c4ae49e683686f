import {createClient} from '@sanity/client'
import type {Browser, Page} from 'playwright-core'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {block, sitemapUrls} from '../server/discovery/testing.ts'
import {openBrowser} from './support/sharedBrowser.ts'
import {startTestServer} from '../test/support/server.ts'

/**
 * What crawlers and link previews read from each page's first response (issue #6): Open Graph
 * and Twitter tags, feed links and JSON-LD, read from the server's HTML with JavaScript off;
 * and the 404 status of unknown routes and slugs.
 */
let server: Awaited<ReturnType<typeof startTestServer>>
let browser: Browser
let page: Page
const siteUrl = 'https://writer.example'
const post = {
  slug: 'crossing-zojila',
  title: 'Crossing the Zojila on a Bullet',
  date: '2024-04-20',
  category: 'Motorcycles',
}
const bodyText = 'The pass opens in May. '.repeat(10)

interface Head {
  status: number
  meta: Record<string, string>
  canonical: string | null
  alternates: Array<{type: string | null; href: string | null}>
  jsonLd: unknown[]
  text: string
}

/** Loads `path` without JavaScript, so what is read is exactly the server's HTML. */
async function head(path: string): Promise<Head> {
  const response = await page.goto(`${server.url}${path}`)
  const found = await page.evaluate(() => ({
    meta: Object.fromEntries(
      [...document.querySelectorAll('meta[property], meta[name]')].map((m) => [
        m.getAttribute('property') ?? m.getAttribute('name'),
        m.getAttribute('content'),
      ]),
    ),
    canonical: document.querySelector('link[rel=canonical]')?.getAttribute('href') ?? null,
    alternates: [...document.querySelectorAll('head link[rel=alternate]')].map((l) => ({
      type: l.getAttribute('type'),
      href: l.getAttribute('href'),
    })),
    jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => s.textContent ?? '',
    ),
    text: document.body.innerText,
  }))
  return {
    ...found,
    status: response?.status() ?? 0,
    jsonLd: found.jsonLd.map((json) => JSON.parse(json)),
  }
}

/** Every node of every JSON-LD graph on the page, by @type. */
function nodes(jsonLd: unknown[]): Map<string, Record<string, unknown>> {
  const all = jsonLd.flatMap(
    (data) => (data as {'@graph': Array<Record<string, unknown>>})['@graph'],
  )
  return new Map(all.map((node) => [String(node['@type']), node]))
}

beforeAll(async () => {
  server = await startTestServer({SEED: '0', SITE_URL: siteUrl})
  const token = server.lake?.token
  const owner = createClient({
    projectId: 'scriptorium',
    dataset: 'production',
    apiVersion: '2025-02-19',
    apiHost: server.url,
    useProjectHostname: false,
    useCdn: false,
    token,
  })
  await owner.create({
    _id: 'post-zojila',
    _type: 'post',
    ...post,
    slug: {_type: 'slug', current: post.slug},
    body: [block('a', [[bodyText]])],
  })
  browser = await openBrowser()
  page = await browser.newPage({javaScriptEnabled: false})
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const pages = [
  {path: '/', canonical: '/', owner: true},
  {path: '/service', canonical: '/services', owner: true},
  {path: '/testimonial', canonical: '/testimonials', owner: false},
  {path: '/blog', canonical: '/blog', owner: false},
  {path: '/contact', canonical: '/contact', owner: false},
]

describe('every page', () => {
  for (const {path, canonical, owner} of pages) {
    it(`${path}: Open Graph and Twitter tags, feed links${owner ? ', Person and ProfessionalService' : ''}`, async () => {
      const found = await head(path)
      expect(found.status).toBe(200)
      expect(found.canonical).toBe(`${siteUrl}${canonical}`)
      expect(found.meta['og:url']).toBe(`${siteUrl}${canonical}`)
      expect(found.meta['og:type']).toBe('website')
      expect(found.meta['og:title']).toBeTruthy()
      expect(found.meta['og:description']).toBe(found.meta.description)
      expect(found.meta['og:image']).toBe(`${siteUrl}/share.png`)
      expect(found.meta['og:image:alt']).toBeTruthy()
      expect(found.meta['twitter:card']).toBe('summary_large_image')
      expect(found.meta['twitter:image']).toBe(`${siteUrl}/share.png`)
      expect(found.alternates).toEqual(
        expect.arrayContaining([
          {type: 'application/rss+xml', href: `${siteUrl}/rss.xml`},
          {type: 'application/atom+xml', href: `${siteUrl}/atom.xml`},
        ]),
      )
      const graph = nodes(found.jsonLd)
      if (!owner) return expect([...graph.keys()]).toEqual([])
      expect(graph.get('Person')).toMatchObject({name: 'Zoya Mir', url: `${siteUrl}/`})
      const business = graph.get('ProfessionalService')
      expect(business).toMatchObject({
        name: expect.any(String),
        url: `${siteUrl}/`,
        image: `${siteUrl}/share.png`,
        address: {addressRegion: 'Kashmir'},
      })
      expect(JSON.stringify(business?.hasOfferCatalog)).toContain('Proofreading')
    })
  }

  it('the share image is served as a 1200×630 PNG', async () => {
    const response = await fetch(`${server.url}/share.png`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    const {width, height, format} = await sharp(
      Buffer.from(await response.arrayBuffer()),
    ).metadata()
    expect({width, height, format}).toEqual({width: 1200, height: 630, format: 'png'})
  })
})

describe('a post', () => {
  it('is an article with its date, excerpt, BlogPosting and BreadcrumbList', async () => {
    const found = await head(`/blog/${post.slug}`)
    const url = `${siteUrl}/blog/${post.slug}`
    expect(found.status).toBe(200)
    expect(found.meta['og:type']).toBe('article')
    expect(found.meta['og:url']).toBe(url)
    expect(found.meta['article:published_time']).toBe(post.date)
    expect(found.meta['og:description']).toBe(bodyText.slice(0, 151))
    expect(found.meta['twitter:description']).toBe(bodyText.slice(0, 151))
    const graph = nodes(found.jsonLd)
    expect(graph.get('BlogPosting')).toMatchObject({
      headline: post.title,
      datePublished: post.date,
      url,
      mainEntityOfPage: url,
      image: `${siteUrl}/share.png`,
      author: {'@type': 'Person', name: 'Zoya Mir'},
    })
    expect(graph.get('BreadcrumbList')?.itemListElement).toEqual([
      {'@type': 'ListItem', position: 1, name: 'Home', item: `${siteUrl}/`},
      {'@type': 'ListItem', position: 2, name: 'Blog', item: `${siteUrl}/blog`},
      {'@type': 'ListItem', position: 3, name: post.title, item: url},
    ])
  })
})

describe('not found', () => {
  it('an unknown route answers 404 in the site layout, linking home and to the blog', async () => {
    const found = await head('/no-such-page')
    expect(found.status).toBe(404)
    expect(await pageLinks()).toEqual(expect.arrayContaining(['/', '/blog']))
    // In the site's layout: the navigation bar is there too.
    expect(
      await page.evaluate(() => document.querySelectorAll('nav a[href]').length),
    ).toBeGreaterThan(0)
  })

  it("an unknown slug answers 404 with 'Post not found.'", async () => {
    const found = await head('/blog/no-such-post')
    expect(found.status).toBe(404)
    expect(found.text).toContain('Post not found.')
  })
})

describe('the Studio', () => {
  it('carries noindex, so it never shows up in search results', async () => {
    const context = await browser.newContext({javaScriptEnabled: false, ignoreHTTPSErrors: true})
    try {
      const studio = await context.newPage()
      const response = await studio.goto(`${server.httpsUrl}/studio`)
      const robots = await studio.evaluate(
        () => document.querySelector('meta[name=robots]')?.getAttribute('content') ?? '',
      )
      expect(`${robots} ${response?.headers()['x-robots-tag'] ?? ''}`).toContain('noindex')
    } finally {
      await context.close()
    }
  })
})

describe('the sitemap', () => {
  it('lists only addresses that answer 200', async () => {
    const urls = sitemapUrls(await (await fetch(`${server.url}/sitemap.xml`)).text())
    for (const {loc} of urls) {
      const response = await fetch(`${server.url}${new URL(loc).pathname}`)
      expect(response.status, loc).toBe(200)
    }
  })
})

/** The links in the page's main content (not the nav bar's). */
async function pageLinks(): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main a[href]')].map((a) => a.getAttribute('href') ?? ''),
  )
}
