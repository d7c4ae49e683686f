import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../test/support/server.ts'
import {chunkGraph} from '../scripts/chunkGraph.ts'
import {block, createPosts, type TestServer} from './site.fixtures.ts'

// What a crawler or link preview sees: the first response, no JavaScript.
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({SEED: '0', SITE_URL: 'https://writer.example/'})
  await createPosts(server, [
    {
      slug: 'hello',
      title: 'Hello & <Welcome>',
      date: '2024-03-05',
      category: 'Kashmir',
      body: [block('b', 'Snow fell on the chinar trees. '.repeat(10))],
    },
    {slug: 'empty', title: 'Empty', date: '2024-03-01', category: 'General', body: []},
  ])
})

afterAll(() => server?.stop())

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {headers})
  return {response, html: await response.text()}
}

const attr = (html: string, pattern: RegExp) => pattern.exec(html)?.[1]

describe('server-rendered HTML', () => {
  const routes = [
    {
      path: '/',
      status: 200,
      canonical: 'https://writer.example/',
      h1: 'Zoya Mir',
      title: 'Zoya Mir — Writer &amp; Editor',
    },
    {
      path: '/service',
      status: 200,
      canonical: 'https://writer.example/services',
      h1: 'Services',
      title: 'Services | Zoya Mir — Writer &amp; Editor',
    },
    {
      path: '/testimonial',
      status: 200,
      canonical: 'https://writer.example/testimonials',
      h1: 'Testimonials',
      title: 'Testimonials | Zoya Mir — Writer &amp; Editor',
    },
    {
      path: '/blog',
      status: 200,
      canonical: 'https://writer.example/blog',
      h1: 'Blog',
      title: 'Blog | Zoya Mir — Writer &amp; Editor',
    },
    {
      path: '/blog/hello',
      status: 200,
      canonical: 'https://writer.example/blog/hello',
      h1: 'Hello &amp; &lt;Welcome&gt;',
      title: 'Hello &amp; &lt;Welcome&gt; | Zoya Mir — Writer &amp; Editor',
    },
    {
      path: '/contact',
      status: 200,
      canonical: 'https://writer.example/contact',
      h1: 'Say Hello',
      title: 'Contact | Zoya Mir — Writer &amp; Editor',
    },
    {
      path: '/blog/missing',
      status: 404,
      canonical: 'https://writer.example/blog/missing',
      h1: 'Post not found.',
      title: 'Post not found | Zoya Mir — Writer &amp; Editor',
    },
    {
      path: '/no/such/page',
      status: 404,
      canonical: 'https://writer.example/no/such/page',
      h1: 'Page not found',
      title: 'Page not found | Zoya Mir — Writer &amp; Editor',
    },
  ]

  for (const route of routes) {
    it(`${route.path}: ${route.status}, title, description, canonical and content in the first response`, async () => {
      const {response, html} = await get(route.path)
      expect(response.status).toBe(route.status)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>')).toBe(
        true,
      )
      const head = html.slice(0, html.indexOf('</head>'))
      expect(head.match(/<title>/g)).toHaveLength(1)
      expect(attr(head, /<title>([^<]*)<\/title>/)).toBe(route.title)
      expect(head.match(/<meta name="description"/g)).toHaveLength(1)
      expect(attr(head, /<meta name="description" content="([^"]+)"/)?.length).toBeGreaterThan(20)
      expect(head.match(/rel="canonical"/g)).toHaveLength(1)
      expect(attr(head, /<link rel="canonical" href="([^"]+)"/)).toBe(route.canonical)
      // Styles are inlined (no render-blocking stylesheet) and no script is fetched up front: the
      // page's only JavaScript is the inline boot script at the end of the body, which imports the
      // app's entry at the first click or key, then the speculation rules (web/boot/).
      expect(head).toMatch(/<style data-styled="true"/)
      expect(html).not.toMatch(/rel="stylesheet"|<script[^>]*\ssrc=|rel="modulepreload"/)
      expect(html).toMatch(
        /<script>\(\(options\) => \{[^<]*"app":"\/assets\/entry\.client-[\w-]+\.js"[^<]*<\/script><script type="speculationrules">[^<]*<\/script><\/body><\/html>$/,
      )
      expect(html).toContain(`<h1>${route.h1}</h1>`)
    })
  }

  it("a post's description is the first 151 characters of its text, or the fallback", async () => {
    const {html} = await get('/blog/hello')
    expect(attr(html, /<meta name="description" content="([^"]+)"/)).toBe(
      'Snow fell on the chinar trees. '.repeat(10).slice(0, 151),
    )
    const empty = await get('/blog/empty')
    expect(attr(empty.html, /<meta name="description" content="([^"]+)"/)).toBe(
      'A blog post by a writer based in Kashmir.',
    )
  })

  it('the contact form works without JavaScript: a real POST form with _next', async () => {
    const {html} = await get('/contact')
    // React orders attributes its own way: compare each tag's attributes as a set.
    const tag = (name: string, marker: string) =>
      new RegExp(`<${name}\\b[^>]*${marker}[^>]*>`).exec(html)?.[0] ?? ''
    const has = (text: string, ...attrs: string[]) => attrs.every((a) => text.includes(a))
    expect(has(tag('form', 'method='), 'method="POST"', 'action="/api/contact"')).toBe(true)
    expect(
      has(tag('input', 'name="_next"'), 'type="hidden"', 'value="https://writer.example/contact"'),
    ).toBe(true)
    expect(has(tag('input', 'name="name"'), 'type="text"', 'required=""')).toBe(true)
    expect(has(tag('input', 'name="email"'), 'type="email"', 'required=""')).toBe(true)
    expect(has(tag('textarea', 'name="message"'), 'rows="4"', 'required=""')).toBe(true)
    expect(html).toContain('<button type="submit">Send</button>')
  })

  it("home's two lazy sections are in the server's HTML, not 'Loading ...'", async () => {
    const {html} = await get('/')
    expect(html).not.toContain('Loading ...')
    expect(html).toMatch(/<h2[^>]*>Latest writing<\/h2>/)
    expect(html).toMatch(/<h2[^>]*>What clients say<\/h2>/)
    expect(html).toContain('Hello &amp; &lt;Welcome&gt;')
  })

  it('a published change shows at once: the render cache is invalidated by the commit', async () => {
    expect((await get('/blog/fresh')).response.status).toBe(404)
    await createPosts(server, [
      {slug: 'fresh', title: 'Fresh Off The Press', date: '2024-04-01', category: 'General'},
    ])
    const after = await get('/blog/fresh')
    expect(after.response.status).toBe(200)
    expect(after.html).toContain('<h1>Fresh Off The Press</h1>')
    expect((await get('/blog')).html).toContain('Fresh Off The Press')
    await server.lake!.mutate([{patch: {id: 'post-fresh', set: {title: 'Renamed'}}}])
    expect((await get('/blog/fresh')).html).toContain('<h1>Renamed</h1>')
  })

  it('pages revalidate with an ETag and are compressed', async () => {
    const first = await get('/service', {'accept-encoding': 'br'})
    expect(first.response.headers.get('cache-control')).toBe('no-cache')
    const etag = first.response.headers.get('etag')
    expect(etag).toBeTruthy()
    const again = await fetch(`${server.url}/service`, {headers: {'if-none-match': etag!}})
    expect(again.status).toBe(304)
    const raw = await fetch(`${server.url}/service`, {headers: {'accept-encoding': 'gzip'}})
    expect(raw.headers.get('content-encoding')).toBe('gzip')
  })

  it('hashed assets are immutable and precompressed; the manifest is not served', async () => {
    const {html} = await get('/')
    const entry = attr(html, /"app":"(\/assets\/entry\.client-[\w-]+\.js)"/)!
    const response = await fetch(`${server.url}${entry}`, {headers: {'accept-encoding': 'br'}})
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const favicon = await fetch(`${server.url}/favicon.svg`)
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600')
    expect((await fetch(`${server.url}/.vite/manifest.json`)).status).toBe(404)
    expect((await fetch(`${server.url}/assets/..%2f..%2fserver/entry.server.js`)).status).toBe(404)
  })

  it('no Studio module reaches a public chunk', () => {
    // Preview mode's own chunks may (e2e/studio-chunks.test.ts); no public page can load them.
    const {publicFiles} = chunkGraph('dist/client')
    expect(publicFiles.size).toBeGreaterThan(0)
    for (const file of publicFiles) {
      const code = readFileSync(join(import.meta.dirname, '../dist/client', file), 'utf8')
      expect(code, file).not.toMatch(
        /sanity\/structure|defineConfig\(|@sanity\/ui|@sanity\/vision|studio\//,
      )
    }
  })
})
