import {parseFeed} from '@rowanmanning/feed-parser'
import {XMLParser, XMLValidator} from 'fast-xml-parser'
import {validateXML} from 'xmllint-wasm'
import {escapeHTML} from '@portabletext/to-html'
import {describe, expect, it} from 'vitest'
import type {FeedPost} from './content.ts'
import {fallbackExcerpt} from '../../shared/constants.ts'
import {postSummary, publishedAt, renderFeed} from './feeds.ts'
import {block} from './testing.ts'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'

const siteUrl = 'https://writer.example'
const site = resolveSiteConfig({siteUrl})

function post(overrides: Partial<FeedPost> & Pick<FeedPost, 'slug'>): FeedPost {
  return {
    _id: `post-${overrides.slug}`,
    title: `Title of ${overrides.slug}`,
    date: '2024-03-05',
    excerpt: null,
    category: 'Kashmir',
    mainImage: null,
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
      const parsed = parseFeed(renderFeed(posts, site, format))
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
      }).parse(renderFeed(posts, site, format))
      const contents =
        format === 'rss'
          ? (xml as RssShape).rss.channel.item.map((i) => i['content:encoded'])
          : (xml as AtomShape).feed.entry.map((e) => e.content)
      expect(contents).toEqual([bodyHtml, bodyHtml])
    })
  }

  it("atom: the feed's updated is the newest change, each entry's its own; the owner is the author", () => {
    const parsed = parseFeed(renderFeed(posts, site, 'atom'))
    expect(parsed.updated?.toISOString()).toBe('2024-06-01T12:00:00.000Z')
    expect(parsed.items.map((item) => item.updated?.toISOString())).toEqual([
      '2024-06-01T12:00:00.000Z',
      '2024-03-06T09:30:00.000Z',
    ])
    expect(parsed.items[0].id).toBe(`${siteUrl}/blog/newer`)
    expect(parsed.authors.map((a) => a.name)).toEqual(['Zoya Mir'])
  })

  for (const format of ['rss', 'atom'] as const) {
    it(`${format}: carries any category the owner made (issue #37), escaped`, async () => {
      const made = [
        post({slug: 'birds', category: 'Birdsong'}),
        post({slug: 'fish', category: 'Fish & "Chips"'}),
      ]
      const xml = renderFeed(made, site, format)
      const libxml = await validateXML({
        xml: [{fileName: 'feed.xml', contents: xml}],
        normalization: 'c14n',
      })
      expect(libxml.errors).toEqual([])
      const categories = parseFeed(xml).items.map((item) => item.categories.map((c) => c.term))
      expect(categories).toEqual([['Birdsong'], ['Fish & "Chips"']])
    })
  }

  it('rss: declares its language and its own address', () => {
    const parsed = parseFeed(renderFeed(posts, site, 'rss'))
    expect(parsed.language).toBe('en-GB')
    expect(parsed.self).toBe(`${siteUrl}/rss.xml`)
  })

  it('is identical when rebuilt from the same content (no wall-clock time in it)', () => {
    for (const format of ['rss', 'atom'] as const)
      expect(renderFeed(posts, site, format)).toBe(renderFeed(posts, site, format))
  })

  it('is valid with no posts at all', () => {
    const now = () => new Date('2025-01-01T00:00:00Z')
    expect(parseFeed(renderFeed([], site, 'atom', now)).items).toEqual([])
    expect(parseFeed(renderFeed([], site, 'rss', now)).items).toEqual([])
  })
})

describe('the feeds, for a post with pictures', () => {
  const assetId = 'image-5d466ac65c5b08663c93e07c1e6c5653325b3aca-1600x1000-jpg'
  const asset = {_id: assetId, metadata: {lqip: null, isOpaque: true}}
  const fields = {crop: null, hotspot: null, decorative: null}
  const pictured = post({
    slug: 'pictured',
    mainImage: {...fields, asset, alt: 'Chinar leaves', caption: null},
    body: [
      block('a', [['Leaves.', []]]),
      {
        ...fields,
        _type: 'image',
        _key: 'img',
        asset,
        alt: 'A kangri & its embers',
        caption: 'The <kangri>',
      },
    ],
  })

  for (const format of ['rss', 'atom'] as const) {
    it(`${format}: body images are absolute <img> with alt, size and caption; the cover is the enclosure`, () => {
      const cover = `${siteUrl}/images/scriptorium/production/5d466ac65c5b08663c93e07c1e6c5653325b3aca-1600x1000.jpg/cover.jpeg?rect=0,80,1600,840&w=1200&h=630&fm=jpg&q=80&fit=crop`
      const xml = renderFeed([pictured], site, format, undefined, new Map([[cover, 48_213]]))
      // feed-parser decodes entities in what it returns, so the markup is read as XML.
      const parsed: unknown = new XMLParser({
        isArray: (name) => name === 'item' || name === 'entry',
      }).parse(xml)
      const content =
        format === 'rss'
          ? (parsed as RssShape).rss.channel.item[0]['content:encoded']
          : (parsed as AtomShape).feed.entry[0].content
      const item = parseFeed(xml).items[0]
      const src = `${siteUrl}/images/scriptorium/production/5d466ac65c5b08663c93e07c1e6c5653325b3aca-1600x1000.jpg`
      expect(content).toContain(
        `<figure><img src="${src}?w=960&amp;fit=max" alt="A kangri &amp; its embers" width="960" height="600"><figcaption>The &lt;kangri&gt;</figcaption></figure>`,
      )
      expect(item.media).toEqual([
        expect.objectContaining({
          url: `${src}/cover.jpeg?rect=0,80,1600,840&w=1200&h=630&fm=jpg&q=80&fit=crop`,
          mimeType: 'image/jpeg',
          length: 48_213,
        }),
      ])
    })
  }

  it('a cover whose byte length is not known: left out of RSS (which requires it), kept in Atom', () => {
    expect(parseFeed(renderFeed([pictured], site, 'rss')).items[0].media).toEqual([])
    expect(renderFeed([pictured], site, 'rss')).not.toContain('length="0"')
    const atom = parseFeed(renderFeed([pictured], site, 'atom')).items[0].media
    expect(atom).toEqual([expect.objectContaining({mimeType: 'image/jpeg', length: null})])
  })

  it('builds cdn.sanity.io addresses in hosted mode', () => {
    const hosted = resolveSiteConfig({siteUrl, hostedProjectId: 'abc123'})
    const xml = renderFeed([pictured], hosted, 'rss')
    expect(xml).toContain('https://cdn.sanity.io/images/abc123/production/5d466ac65c5b')
    expect(xml).not.toContain(`${siteUrl}/images/`)
  })
})

describe('the feeds, for any title or body', () => {
  // Everything an author could paste: CDATA ends (two, adjacent, split by a control character),
  // markup, entities, every C0 control, lone surrogates, U+FFFE/U+FFFF, and astral characters.
  const controls = Array.from({length: 32}, (_, i) => String.fromCharCode(i)).join('')
  const hostile = `A ]]> B ]]>]]> C ]\u0001]> <b>&amp;</b> ${controls}\uDFFF\uD800\uFFFE\uFFFF 🏔 end`
  const readable = 'A ]]> B ]]>]]> C ]]> <b>&amp;</b> \t\n\r 🏔 end'
  const hostilePosts = [
    post({
      slug: 'hostile',
      title: hostile,
      excerpt: hostile,
      category: hostile,
      body: [
        block(
          'h',
          [
            [hostile, ['strong']],
            [hostile, []],
          ],
          {links: {}},
        ),
      ],
    }),
    post({slug: 'body-only', title: ']]>', excerpt: null, body: [block('b', [[hostile]])]}),
  ]

  for (const format of ['rss', 'atom'] as const) {
    it(`${format}: is well-formed XML to libxml2 and to fast-xml-parser`, async () => {
      const xml = renderFeed(hostilePosts, site, format)
      // No schema: c14n asks libxml2 to parse the whole document and print it canonically.
      const libxml = await validateXML({
        xml: [{fileName: 'feed.xml', contents: xml}],
        normalization: 'c14n',
      })
      expect(libxml.errors.map((error) => error.message)).toEqual([])
      expect(XMLValidator.validate(xml)).toBe(true)
    })

    it(`${format}: reads back the text the author wrote, less what XML cannot carry`, () => {
      // Raw element text: feed-parser would decode entities in an RSS title, which is plain text.
      const xml: unknown = new XMLParser({
        isArray: (name) => name === 'item' || name === 'entry',
        parseTagValue: false,
        trimValues: false,
      }).parse(renderFeed(hostilePosts, site, format))
      const items =
        format === 'rss'
          ? (xml as RssShape).rss.channel.item.map((i) => ({
              title: i.title,
              summary: i.description,
              content: i['content:encoded'],
            }))
          : (xml as AtomShape).feed.entry.map((e) => ({
              title: e.title,
              summary: e.summary,
              content: e.content,
            }))
      const plain = readable.replace(/\s+/g, ' ')
      const titles = items.map((item) => item.title.replace(/\s+/g, ' '))
      expect(titles).toEqual(
        format === 'rss' ? [plain, ']]>'] : [escapeHTML(plain), escapeHTML(']]>')],
      )
      expect(items[0].summary.replace(/\s+/g, ' ')).toBe(escapeHTML(plain))
      expect(items[1].content).toContain(escapeHTML('A ]]> B ]]>]]> C ]]> <b>&amp;</b>'))
    })

    it(`${format}: leaves out a category with markup, which would break the feed`, () => {
      const xml = renderFeed(hostilePosts, site, format)
      expect(xml).not.toContain('A ]]> B')
      expect(parseFeed(renderFeed(posts, site, format)).items[0].categories).toHaveLength(1)
    })
  }
})

interface RssShape {
  rss: {channel: {item: Array<Record<string, string>>}}
}
interface AtomShape {
  feed: {entry: Array<{title: string; summary: string; content: string}>}
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
