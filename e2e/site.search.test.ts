import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  block,
  createPosts,
  mobile,
  openPage,
  startSite,
  stopSite,
  type TestServer,
} from './site.fixtures.ts'
import type {Browser} from 'playwright-core'

/** The reader's search, `/search` (docs/search.md): HTTP answers, then a browser with no script. */
let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, [
    {
      slug: 'kestrel',
      title: 'Watching birds',
      date: '2024-03-05',
      category: 'Kashmir',
      body: [block('b', 'A kestrel hovered over the Dal lake, then dropped into the reeds.')],
    },
    {
      slug: 'kestrel-title',
      title: 'The Kestrel Season',
      date: '2024-01-05',
      category: 'General',
      body: [block('b', 'Spring comes late to the valley.')],
    },
    {slug: 'other', title: 'Motorcycles', date: '2024-02-01', category: 'General'},
  ])
  await site.server.lake!.mutate([
    {
      createOrReplace: {
        _id: 'drafts.post-secret',
        _type: 'post',
        title: 'Kestrel secrets',
        slug: {_type: 'slug', current: 'secret'},
        date: '2024-04-01',
      },
    },
  ])
})
afterAll(() => stopSite(site))

async function get(query: string) {
  const response = await fetch(`${site.server.url}/search${query}`, {
    headers: {'accept-encoding': 'br'},
  })
  const encoding = response.headers.get('content-encoding')
  return {status: response.status, html: await response.text(), encoding}
}

describe('/search over HTTP', () => {
  it('ranks a title match first, marks the matched word, never shows a draft, is noindex', async () => {
    const {status, html, encoding} = await get('?q=kestrel')
    expect(status).toBe(200)
    // Compressed for the wire like every page (at a quicker quality: server/render/handler.ts).
    expect(encoding).toBe('br')
    expect(html).toContain('<meta name="robots" content="noindex"/>')
    expect(html).toContain('2 posts match')
    expect(html.indexOf('The Kestrel Season')).toBeGreaterThan(-1)
    expect(html.indexOf('The Kestrel Season')).toBeLessThan(html.indexOf('Watching birds'))
    expect(html).toContain('<mark>kestrel</mark>')
    expect(html).not.toContain('Kestrel secrets')
    expect(html).not.toContain('Motorcycles')
  })

  it('ranks by relevance: a post saying the word more often comes before a newer one saying it once', async () => {
    await createPosts(site.server, [
      {
        slug: 'heron-once',
        title: 'River walk',
        date: '2024-06-02',
        category: 'General',
        body: [block('b', 'We saw a heron by the weir.')],
      },
      {
        slug: 'heron-often',
        title: 'Patience',
        date: '2024-06-01',
        category: 'General',
        body: [
          block('b', 'The heron waits. A heron stalks; the heron strikes, and the heron eats.'),
        ],
      },
      {
        slug: 'heron-title',
        title: 'A heron at dawn',
        date: '2024-05-01',
        category: 'General',
        body: [block('b', 'Mist on the water.')],
      },
    ])
    const {html} = await get('?q=heron')
    expect(html).toContain('3 posts match')
    // The title weighs most; then four mentions in the body before one, though the one is newer.
    const at = ['A heron at dawn', 'Patience', 'River walk'].map((title) => html.indexOf(title))
    expect(at.every((index) => index > -1)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
  })

  it('says honestly when nothing matches, and asks for words when given none', async () => {
    expect((await get('?q=zeppelin')).html).toContain('No posts match')
    expect((await get('')).html).toContain('Type a few words')
  })

  it('phrases, exclusions and prefixes work', async () => {
    expect((await get('?q=%22dal+lake%22')).html).toContain('1 post matches')
    expect((await get('?q=kestrel+-reeds')).html).toContain('1 post matches')
    expect((await get('?q=kestr*')).html).toContain('2 posts match')
  })

  it('answers hostile queries with a normal page, never a 500', async () => {
    const hostile = [
      'x'.repeat(10_000),
      '.*(a+)+$[',
      '\u0000\u0001\u001b[31m',
      '"unbalanced -"',
      'the a of and',
      `${'a '.repeat(500)}kestrel`,
      '%ZZ',
    ]
    for (const q of hostile) {
      const {status, html} = await get(`?q=${encodeURIComponent(q)}`)
      expect(status, q.slice(0, 20)).toBe(200)
      expect(html).toContain('<h1>Search</h1>')
    }
    expect((await get('?q=%ZZ')).status).toBeLessThan(500)
  })
})

describe('/search in a browser without JavaScript', () => {
  for (const [name, options] of [
    ['desktop', {}],
    ['mobile', mobile],
  ] as const) {
    it(`a reader on ${name} searches from the nav and sees the post with its match marked`, async () => {
      const {page} = await openPage(site.browser, {...options, javaScriptEnabled: false})
      await page.goto(`${site.server.url}/`)
      if (name === 'mobile') await page.getByRole('button', {name: /menu/i}).click()
      await page.locator('#main-nav-links').getByRole('link', {name: 'Search'}).click()
      await page.getByRole('searchbox', {name: 'Search the blog'}).fill('dal lake')
      await page.getByRole('button', {name: 'Search'}).click()
      await page.waitForURL(/\/search\?q=dal\+lake/)
      expect(await page.locator('main h2, main h3').allInnerTexts()).toEqual(['Watching birds'])
      expect(await page.locator('mark').allInnerTexts()).toEqual(['Dal', 'lake'])
      await page.context().close()
    })
  }
})

describe('/search per-client rate', () => {
  it('a client searching too fast gets a 429 page with Retry-After, never a 500', async () => {
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < 45; i++) {
      last = await fetch(`${site.server.url}/search?q=kestrel`)
      statuses.push(last.status)
      await last.text()
    }
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
