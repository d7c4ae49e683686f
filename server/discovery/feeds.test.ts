import {parseFeed} from '@rowanmanning/feed-parser'
import {XMLParser} from 'fast-xml-parser'
import {describe, expect, it} from 'vitest'
import type {FeedPost} from './content.ts'
import {fallbackExcerpt} from '../../web/queries.ts'
import {postSummary, publishedAt, renderFeed} from './feeds.ts'
import {block} from './testing.ts'

const siteUrl = 'https://writer.example'

function post(overrides: Partial<FeedPost> & Pick<FeedPost, 'slug'>): FeedPost {
  return {
    _id: `post-${overrides.slug}`,
    title: `Title of ${overrides.slug}`,
    date: '2024-03-05',
    excerpt: null,
    category: 'Kashmir',
    body: [
      block('a', [
        ['Snow on the ', []],
        ['Pir Panjal', ['strong']],
        [' & a <b> ]]> marker.', []],
      ]),
    ],
    _updatedAt: '2024-03-06T09:30:00Z',
    ...overrides,
  }
}

const posts = [
  post({
    slug: 'newer',
    title: 'Fish & <chips>',
    date: '2024-05-01',
    excerpt: 'Written <excerpt> & "quotes" ]]> end',
    _updatedAt: '2024-06-01T12:00:00Z',
  }),
  post({slug: 'older'}),
]
const bodyHtml = '<p>Snow on the <strong>Pir Panjal</strong> &amp; a &lt;b&gt; ]]&gt; marker.</p>'

describe('the feeds', () => {
  for (const format of ['rss', 'atom'] as const) {
    it(`${format}: parses, with absolute links, titles, summaries, categories and dates`, () => {
      const parsed = parseFeed(renderFeed(posts, siteUrl, format))
      expect(parsed.title).toBe('Zoya Mir — Blog')
      expect(parsed.url).toBe(`${siteUrl}/blog`)
      expect(parsed.items.map((item) => item.url)).toEqual([
        `${siteUrl}/blog/newer`,
        `${siteUrl}/blog/older`,
      ])
      const [newer, older] = parsed.items
      expect(newer.title).toBe('Fish & <chips>')
      expect(newer.description).toBe('Written <excerpt> & "quotes" ]]> end')
      expect(older.description).toBe('Snow on the Pir Panjal & a <b> ]]> marker.')
      expect(newer.published?.toISOString()).toBe('2024-05-01T00:00:00.000Z')
      expect(older.published?.toISOString()).toBe('2024-03-05T00:00:00.000Z')
      expect(newer.categories.map((c) => c.term)).toEqual(['Kashmir'])
    })

    it(`${format}: carries each post's full body as HTML, escaped exactly once`, () => {
      // feed-parser decodes entities in what it returns, so read the element as XML instead.
      const xml: unknown = new XMLParser({
        isArray: (name) => name === 'item' || name === 'entry',
      }).parse(renderFeed(posts, siteUrl, format))
      const contents =
        format === 'rss'
          ? (xml as RssShape).rss.channel.item.map((i) => i['content:encoded'])
          : (xml as AtomShape).feed.entry.map((e) => e.content)
      expect(contents).toEqual([bodyHtml, bodyHtml])
    })
  }

  it("atom: the feed's updated is the newest change, each entry's its own; the owner is the author", () => {
    const parsed = parseFeed(renderFeed(posts, siteUrl, 'atom'))
    expect(parsed.updated?.toISOString()).toBe('2024-06-01T12:00:00.000Z')
    expect(parsed.items.map((item) => item.updated?.toISOString())).toEqual([
      '2024-06-01T12:00:00.000Z',
      '2024-03-06T09:30:00.000Z',
    ])
    expect(parsed.items[0].id).toBe(`${siteUrl}/blog/newer`)
    expect(parsed.authors.map((a) => a.name)).toEqual(['Zoya Mir'])
  })

  it('rss: declares its language and its own address', () => {
    const parsed = parseFeed(renderFeed(posts, siteUrl, 'rss'))
    expect(parsed.language).toBe('en-GB')
    expect(parsed.self).toBe(`${siteUrl}/rss.xml`)
  })

  it('is identical when rebuilt from the same content (no wall-clock time in it)', () => {
    for (const format of ['rss', 'atom'] as const)
      expect(renderFeed(posts, siteUrl, format)).toBe(renderFeed(posts, siteUrl, format))
  })

  it('is valid with no posts at all', () => {
    const now = () => new Date('2025-01-01T00:00:00Z')
    expect(parseFeed(renderFeed([], siteUrl, 'atom', now)).items).toEqual([])
    expect(parseFeed(renderFeed([], siteUrl, 'rss', now)).items).toEqual([])
  })
})

interface RssShape {
  rss: {channel: {item: Array<Record<string, string>>}}
}
interface AtomShape {
  feed: {entry: Array<{content: string}>}
}

describe('postSummary', () => {
  it('uses the written excerpt, else the first 151 characters of the body, else the fallback', () => {
    expect(postSummary({excerpt: 'Mine.', body: null})).toBe('Mine.')
    const long = 'x'.repeat(200)
    expect(postSummary({excerpt: '  ', body: [block('a', [[long]])]})).toBe('x'.repeat(151))
    expect(postSummary({excerpt: null, body: []})).toBe(fallbackExcerpt)
    expect(fallbackExcerpt).toBe('A blog post by a writer based in Kashmir.')
  })
})

describe('publishedAt', () => {
  it('reads the calendar date as midnight UTC, and falls back to the last change', () => {
    expect(
      publishedAt({date: '2024-12-31', _updatedAt: '2025-01-02T00:00:00Z'}).toISOString(),
    ).toBe('2024-12-31T00:00:00.000Z')
    expect(publishedAt({date: null, _updatedAt: '2025-01-02T00:00:00Z'}).toISOString()).toBe(
      '2025-01-02T00:00:00.000Z',
    )
    expect(publishedAt({date: 'soon', _updatedAt: '2025-01-02T00:00:00Z'}).toISOString()).toBe(
      '2025-01-02T00:00:00.000Z',
    )
  })
})
