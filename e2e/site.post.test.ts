import {createServer, request as httpRequest, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {fileURLToPath} from 'node:url'
import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {resolveSiteConfig} from '../shared/siteConfig.ts'
import {createSiteHandler} from '../server/render/handler.ts'
import {
  block,
  createPosts,
  hydrated,
  openPage,
  startSite,
  stopSite,
  unexpected,
  type TestServer,
} from './site.fixtures.ts'

const span = (key: string, text: string, marks: string[] = []) => ({
  _type: 'span',
  _key: key,
  text,
  marks,
})

/** Every block style, list and mark of the schema, plus links the site must refuse. */
const richBody = [
  block('p1', 'An opening paragraph.'),
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((style) => block(style, `Heading ${style}`, {style})),
  block('q1', 'A line worth quoting.', {style: 'blockquote'}),
  block('b1', 'First bullet', {listItem: 'bullet'}),
  block('b2', 'Second bullet', {listItem: 'bullet'}),
  block('n1', 'First step', {listItem: 'number'}),
  block('n2', 'Second step', {listItem: 'number'}),
  {
    _type: 'block',
    _key: 'm1',
    style: 'normal',
    markDefs: [
      {_type: 'link', _key: 'safe', href: 'https://example.com/page'},
      {_type: 'link', _key: 'mail', href: 'mailto:owner@example.com'},
      {_type: 'link', _key: 'evil', href: 'javascript:alert(1)'},
      {_type: 'link', _key: 'home', href: '/blog/second-post'},
    ],
    children: [
      span('s1', 'bold', ['strong']),
      span('s2', ' italic', ['em']),
      span('s3', ' code', ['code']),
      span('s4', ' underlined', ['underline']),
      span('s5', ' struck', ['strike-through']),
      span('s6', ' a safe link', ['safe']),
      span('s7', ' write to me', ['mail']),
      span('s8', ' a trap', ['evil']),
      span('s9', ' the second post', ['home']),
    ],
  },
]

let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, [
    {
      slug: 'first-post',
      title: 'The First Post',
      date: '2024-03-05',
      category: 'Fiction',
      body: richBody,
    },
    {slug: 'second-post', title: 'The Second Post', date: '2024-02-01', category: 'General'},
  ])
})

afterAll(() => stopSite(site))

describe('post page', () => {
  it('shows the title, the date and every block and mark', async () => {
    const {page, problems} = await openPage(site.browser, {
      locale: 'en-US',
      timezoneId: 'America/New_York',
    })
    await page.goto(`${site.server.url}/blog/first-post`)
    await hydrated(page)
    const main = page.locator('main')
    expect(await main.locator('h1').textContent()).toBe('The First Post')
    expect(await main.locator('time').textContent()).toBe('5 March 2024')
    expect(await main.locator('time').getAttribute('datetime')).toBe('2024-03-05')
    // Body headings sit one level below the title: h1…h5 → h2…h6, h6 stays h6.
    expect(await main.locator('h2, h3, h4, h5, h6').allTextContents()).toEqual([
      'Heading h1',
      'Heading h2',
      'Heading h3',
      'Heading h4',
      'Heading h5',
      'Heading h6',
    ])
    expect(await main.locator('h2').textContent()).toBe('Heading h1')
    expect(await main.locator('blockquote').textContent()).toBe('A line worth quoting.')
    expect(await main.locator(':not(nav) > ul > li').allTextContents()).toEqual([
      'First bullet',
      'Second bullet',
    ])
    // The body's own numbered list (the table of contents is an <ol> inside its <nav>).
    expect(await main.locator(':not(nav) > ol > li').allTextContents()).toEqual([
      'First step',
      'Second step',
    ])
    for (const [selector, text] of [
      ['strong', 'bold'],
      ['em', ' italic'],
      ['code', ' code'],
      ['u', ' underlined'],
      ['s', ' struck'],
    ]) {
      expect(await main.locator(selector).textContent()).toBe(text)
    }
    expect(await main.locator('a[href="https://example.com/page"]').textContent()).toBe(
      ' a safe link',
    )
    expect(await main.locator('a[href="mailto:owner@example.com"]').textContent()).toBe(
      ' write to me',
    )
    expect(await main.getByText('a trap').count()).toBe(1)
    expect(await main.locator('a', {hasText: 'a trap'}).count()).toBe(0)
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0)
    expect(unexpected(problems)).toEqual([])
  })

  // Issue #35: the post header followed the browser's locale (3/5/2024 in the US) while cards
  // printed 05/03/24. Now one text everywhere: from the server, before and after hydration, on
  // the post and on its card, in a US browser and in a German one.
  for (const locale of ['en-US', 'de-DE']) {
    it(`one date format on the server, the post and its card, before and after hydration (${locale})`, async () => {
      const html = await (await fetch(`${site.server.url}/blog/first-post`)).text()
      expect(html).toContain('<time dateTime="2024-03-05">5 March 2024</time>')
      const {page, problems} = await openPage(site.browser, {
        locale,
        timezoneId: 'America/Los_Angeles',
      })
      await page.goto(`${site.server.url}/blog/first-post`)
      // Loaded, nothing touched: only the boot script has run.
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined()
      expect(await page.locator('main time').first().textContent()).toBe('5 March 2024')
      await hydrated(page)
      expect(await page.locator('main time').first().textContent()).toBe('5 March 2024')
      await page.goto(`${site.server.url}/blog`)
      await hydrated(page)
      const card = page.locator('main article', {hasText: 'The First Post'})
      expect(await card.locator('time').textContent()).toBe('5 March 2024')
      expect(await card.locator('time').getAttribute('datetime')).toBe('2024-03-05')
      expect(unexpected(problems)).toEqual([])
      await page.context().close()
    })
  }

  it("an unknown slug: 'Post not found.' with HTTP 404", async () => {
    const response = await fetch(`${site.server.url}/blog/no-such-post`)
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('<h1>Post not found.</h1>')
    const {page, problems} = await openPage(site.browser)
    const loaded = await page.goto(`${site.server.url}/blog/no-such-post`)
    expect(loaded?.status()).toBe(404)
    await hydrated(page)
    expect(await page.locator('h1').textContent()).toBe('Post not found.')
    expect(unexpected(problems, true)).toEqual([])
  })

  it("client navigation shows 'Loading...' while the post is fetched", async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/blog/first-post`)
    await hydrated(page)
    // Hold the browser's query until 'Loading...' has been seen, then let it through.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/data/query/production**', async (route) => {
      await held
      await route.continue()
    })
    await page.getByRole('link', {name: 'the second post', exact: true}).click()
    await page.getByText('Loading...').waitFor()
    release()
    await page.locator('h1', {hasText: 'The Second Post'}).waitFor()
    expect(new URL(page.url()).pathname).toBe('/blog/second-post')
    expect(await page.getByText('Loading...').count()).toBe(0)
    expect(unexpected(problems)).toEqual([])
  })

  it("a failed fetch on client navigation shows 'Post not found.' and logs the failure", async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/blog/first-post`)
    await hydrated(page)
    await page.route('**/data/query/production**', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({error: {description: 'broken on purpose'}}),
      }),
    )
    await page.getByRole('link', {name: 'the second post', exact: true}).click()
    await page.locator('h1', {hasText: 'Post not found.'}).waitFor()
    expect(problems.some((p) => p.includes('could not fetch "second-post"'))).toBe(true)
  })

  it('the browser client retries a 503 and still renders the post', async () => {
    const {page, problems} = await openPage(site.browser)
    await page.goto(`${site.server.url}/blog/first-post`)
    await hydrated(page)
    let answered = 0
    await page.route('**/data/query/production**', async (route) => {
      answered++
      if (answered === 1)
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"error":{"description":"busy"}}',
        })
      return route.continue()
    })
    await page.getByRole('link', {name: 'the second post', exact: true}).click()
    await page.locator('h1', {hasText: 'The Second Post'}).waitFor()
    // The post's query twice (503, then its retry), and the posts around it with its social
    // thread (one query).
    expect(answered).toBe(3)
    // Chromium reports the 503 itself as a failed resource; nothing else may complain.
    expect(problems.filter((p) => !/status of 503/.test(p))).toEqual([])
  })
})

describe('server rendering through a flaky lake', () => {
  let proxy: Server | undefined
  afterAll(() => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())))

  it('a 503-then-200 lake response still renders the post (@sanity/client retries)', async () => {
    const target = new URL(site.server.url)
    const seen: number[] = []
    // A loopback proxy in front of the lake: the first query gets 503, the rest go through.
    proxy = createServer((req, res) => {
      if (req.url?.includes('/data/query/') && seen.length === 0) {
        seen.push(503)
        res
          .writeHead(503, {'content-type': 'application/json'})
          .end('{"error":{"description":"try again"}}')
        return
      }
      seen.push(200)
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve))
    const proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`

    const handler = createSiteHandler({
      distDir: fileURLToPath(new URL('../dist/', import.meta.url)),
      site: () => resolveSiteConfig({siteUrl: 'http://site.test'}),
      contentOrigin: () => proxyOrigin,
    })
    const response = await handler.handle(new Request('http://site.test/blog/second-post'))
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('<h1>The Second Post</h1>')
    expect(html).toContain('<link rel="canonical" href="http://site.test/blog/second-post"/>')
    // The first query (503, then its retry) and, alongside, the others: the post, the posts
    // around it with its social thread (server/social/threads.ts), and the site settings
    // (web/routes/root.loader.ts).
    expect(seen).toEqual([503, 200, 200, 200])
  })
})
