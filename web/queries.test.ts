import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {createClient, type SanityClient} from '@sanity/client'
import sharp from 'sharp'
import {startLakeUnderTest} from '../test/support/lakeUnderTest.ts'
import {resolveSiteConfig} from '../shared/siteConfig.ts'
import {
  latestPostsQuery,
  postBySlugQuery,
  postListQuery,
  postPageQuery,
  postSurroundingsQuery,
} from './queries.ts'
import {sanityNodeAttribute} from './preview/sanityNode.ts'
import {createPreviewClient, createSiteClient} from './sanity.client.ts'

type Server = Awaited<ReturnType<typeof startLakeUnderTest>>

const span = (text: string, key: string) => ({_type: 'span', _key: key, text, marks: []})
const block = (key: string, ...texts: string[]) => ({
  _type: 'block',
  _key: key,
  style: 'normal',
  markDefs: [],
  children: texts.map((text, i) => span(text, `${key}s${i}`)),
})
/**
 * The categories are documents whose slugs differ from their titles; 'General' stays a plain
 * string, as a post written before categories were documents holds it (content/upgrade.ts).
 */
const legacy = new Set(['General'])
const slugOf = (category: string) => (legacy.has(category) ? category : category.toLowerCase())
const categoryDoc = (title: string) => ({
  _id: `category-${slugOf(title)}`,
  _type: 'category',
  title,
  slug: {_type: 'slug', current: slugOf(title)},
})
const post = (id: string, date: string, category: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  _type: 'post',
  title: `Title ${id}`,
  slug: {_type: 'slug', current: id},
  date,
  category: legacy.has(category)
    ? category
    : {_type: 'reference', _ref: `category-${slugOf(category)}`},
  excerpt: `Excerpt ${id}`,
  ...extra,
})
/** Words of each post's body as created below: c has "Hello world." and two long words. */
const wordsOf: Record<string, number | null> = {a: null, b: null, c: 4, d: 0}
const card = (id: string, date: string, category: string) => ({
  _id: id,
  title: `Title ${id}`,
  slug: id,
  date,
  excerpt: `Excerpt ${id}`,
  category,
  categorySlug: slugOf(category),
  words: wordsOf[id] ?? null,
  mainImage: null,
})

const long = 'x'.repeat(100) + ' ' + 'y'.repeat(100)

/** An approved comment as the social thread keeps it, with only some of its fields. */
const comment = {_key: 'k1', authorName: 'Ada', content: '<p>Lovely.</p>', replies: []}

let server: Server
let client: SanityClient

beforeAll(async () => {
  server = await startLakeUnderTest()
  await server.lake.mutate([
    ...['Fiction', 'Kashmir'].map((title) => ({create: categoryDoc(title)})),
    {create: post('a', '2024-01-01', 'Fiction')},
    {create: post('b', '2024-03-05', 'Kashmir')},
    {
      create: post('c', '2024-02-01', 'Fiction', {
        body: [block('k1', 'Hello ', 'world.'), block('k2', long)],
      }),
    },
    {create: post('d', '2024-02-01', 'General', {body: []})},
    {
      create: {
        _id: 'drafts.e',
        _type: 'post',
        title: 'Draft',
        slug: {_type: 'slug', current: 'e'},
        date: '2025-01-01',
      },
    },
    {create: {_id: 'other', _type: 'author', name: 'Not a post'}},
    // What the social web said about c: its public projection (server/social/threads.ts).
    {
      create: {
        _id: 'socialThread-c',
        _type: 'socialThread',
        postId: 'c',
        likes: 3,
        boosts: 1,
        comments: [comment],
      },
    },
  ])
  client = createSiteClient(resolveSiteConfig({siteUrl: server.url}), server.url)
})

afterAll(async () => {
  await server?.stop()
})

describe('web/queries against the lake', () => {
  it('postListQuery: every published post, newest first, slug flattened', async () => {
    expect(await client.fetch(postListQuery)).toEqual([
      card('b', '2024-03-05', 'Kashmir'),
      card('c', '2024-02-01', 'Fiction'),
      card('d', '2024-02-01', 'General'),
      card('a', '2024-01-01', 'Fiction'),
    ])
  })

  it('postPageQuery: a slice of the tab and the tab total', async () => {
    expect(await client.fetch(postPageQuery, {category: null, start: 0, end: 2})).toEqual({
      posts: [card('b', '2024-03-05', 'Kashmir'), card('c', '2024-02-01', 'Fiction')],
      total: 4,
    })
    expect(await client.fetch(postPageQuery, {category: null, start: 2, end: 8})).toEqual({
      posts: [card('d', '2024-02-01', 'General'), card('a', '2024-01-01', 'Fiction')],
      total: 4,
    })
    expect(await client.fetch(postPageQuery, {category: 'fiction', start: 0, end: 6})).toEqual({
      posts: [card('c', '2024-02-01', 'Fiction'), card('a', '2024-01-01', 'Fiction')],
      total: 2,
    })
    expect(await client.fetch(postPageQuery, {category: 'Motorcycles', start: 0, end: 6})).toEqual({
      posts: [],
      total: 0,
    })
  })

  it('latestPostsQuery: the three newest posts', async () => {
    expect(
      (await client.fetch<Array<{slug: string}>>(latestPostsQuery)).map((p) => p.slug),
    ).toEqual(['b', 'c', 'd'])
  })

  it('postBySlugQuery: title, date, body and the first 151 characters of its text', async () => {
    const result = await client.fetch(postBySlugQuery, {slug: 'c'})
    const text = `Hello world.\n\n${long}`
    expect(result).toEqual({
      _id: 'c',
      title: 'Title c',
      date: '2024-02-01',
      category: 'Fiction',
      categorySlug: 'fiction',
      words: 4,
      _updatedAt: expect.any(String),
      mainImage: null,
      body: [block('k1', 'Hello ', 'world.'), block('k2', long)],
      federated: true,
      excerpt: text.slice(0, 151),
    })
    expect(result?.excerpt).toHaveLength(151)
  })

  it('postBySlugQuery: the fallback excerpt without body text, null for an unknown slug', async () => {
    const fallback = 'A blog post by a writer based in Kashmir.'
    expect(await client.fetch(postBySlugQuery, {slug: 'd'})).toEqual({
      _id: 'd',
      title: 'Title d',
      date: '2024-02-01',
      category: 'General',
      categorySlug: 'General',
      words: 0,
      _updatedAt: expect.any(String),
      mainImage: null,
      body: [],
      federated: true,
      excerpt: fallback,
    })
    expect(await client.fetch(postBySlugQuery, {slug: 'a'})).toEqual({
      _id: 'a',
      title: 'Title a',
      date: '2024-01-01',
      category: 'Fiction',
      categorySlug: 'fiction',
      words: null,
      _updatedAt: expect.any(String),
      mainImage: null,
      body: null,
      federated: true,
      excerpt: fallback,
    })
    expect(await client.fetch(postBySlugQuery, {slug: 'e'})).toBeNull()
    expect(await client.fetch(postBySlugQuery, {slug: 'nope'})).toBeNull()
  })

  it('selects the cover and body images with their crop, hotspot, fields and asset placeholder', async () => {
    const owner = createClient({
      projectId: server.lake.projectId,
      dataset: server.lake.dataset,
      apiVersion: '2025-02-19',
      apiHost: server.url,
      useProjectHostname: false,
      useCdn: false,
      token: server.lake.token,
    })
    const bytes = await sharp({create: {width: 64, height: 32, channels: 3, background: '#884422'}})
      .jpeg()
      .toBuffer()
    const asset = await owner.assets.upload('image', bytes, {filename: 'cover.jpg'})
    const image = (extra: Record<string, unknown>) => ({
      _type: 'image',
      asset: {_type: 'reference', _ref: asset._id},
      alt: 'A brown field',
      ...extra,
    })
    const crop = {_type: 'sanity.imageCrop', top: 0.1, bottom: 0, left: 0, right: 0.25}
    await owner.create(
      post('pictured', '2023-06-01', 'Kashmir', {
        mainImage: image({crop, caption: 'Brown'}),
        body: [block('t', 'Text.'), image({_key: 'i', decorative: true})],
      }),
    )
    const result = await client.fetch(postBySlugQuery, {slug: 'pictured'})
    const expanded = {
      _id: asset._id,
      metadata: {lqip: expect.stringMatching(/^data:image\//), isOpaque: true},
    }
    expect(result?.mainImage).toEqual({
      crop,
      hotspot: null,
      alt: 'A brown field',
      decorative: null,
      caption: 'Brown',
      asset: expanded,
    })
    expect(result?.body?.[1]).toEqual({
      _type: 'image',
      _key: 'i',
      crop: null,
      hotspot: null,
      alt: 'A brown field',
      decorative: true,
      caption: null,
      asset: expanded,
    })
    const cards = await client.fetch(postPageQuery, {category: 'kashmir', start: 0, end: 6})
    expect(cards.posts.find((card) => card.slug === 'pictured')?.mainImage?.asset).toEqual(expanded)
    await owner.delete('pictured')
  })

  it('postSurroundingsQuery: previous and next by date (ties by _id), related of the category', async () => {
    const link = (id: string) => ({title: `Title ${id}`, slug: id})
    // The blog's order: b (03-05), c and d (02-01, c first by _id), a (01-01).
    expect(await client.fetch(postSurroundingsQuery, {slug: 'b'})).toEqual({
      previous: link('c'),
      next: null,
      related: [],
      social: null,
    })
    expect(await client.fetch(postSurroundingsQuery, {slug: 'c'})).toEqual({
      previous: link('d'),
      next: link('b'),
      related: [card('a', '2024-01-01', 'Fiction')],
      // The conversation under the post comes in the same answer (one round trip per page).
      social: {
        likes: 3,
        boosts: 1,
        comments: [
          {
            ...comment,
            authorHandle: null,
            authorProfile: null,
            published: null,
            summary: null,
            url: null,
          },
        ],
      },
    })
    expect(await client.fetch(postSurroundingsQuery, {slug: 'd'})).toEqual({
      previous: link('a'),
      next: link('c'),
      related: [],
      social: null,
    })
    expect(await client.fetch(postSurroundingsQuery, {slug: 'a'})).toEqual({
      previous: null,
      next: link('d'),
      related: [card('c', '2024-02-01', 'Fiction')],
      social: null,
    })
    // A draft is never a neighbour on the public path, and an unknown slug has no surroundings.
    expect(await client.fetch(postSurroundingsQuery, {slug: 'e'})).toBeNull()
    expect(await client.fetch(postSurroundingsQuery, {slug: 'nope'})).toBeNull()
  })

  it('postSurroundingsQuery: at most three related posts, newest first', async () => {
    await server.lake.mutate(
      ['r1', 'r2', 'r3', 'r4'].map((id, i) => ({
        createOrReplace: post(id, `2023-0${i + 1}-01`, 'Motorcycles'),
      })),
    )
    try {
      const result = await client.fetch(postSurroundingsQuery, {slug: 'r1'})
      expect(result?.related.map((p) => p.slug)).toEqual(['r4', 'r3', 'r2'])
    } finally {
      await server.lake.mutate(['r1', 'r2', 'r3', 'r4'].map((id) => ({delete: {id}})))
    }
  })

  it("in preview (drafts, the owner's credential) a draft is found, named for its overlays", async () => {
    const preview = createPreviewClient(resolveSiteConfig({siteUrl: server.url}), server.url, {
      authorization: `Bearer ${server.lake.token}`,
    })
    const draft = await preview.fetch(postBySlugQuery, {slug: 'e'})
    expect(draft?.title).toBe('Draft')
    expect(sanityNodeAttribute({id: draft?._id ?? '', type: 'post', path: 'title'})).toBe(
      'id=e;type=post;path=title;base=%2Fstudio',
    )
    expect((await preview.fetch(postListQuery)).map((p) => p._id)).toContain(draft?._id)
  })
})
