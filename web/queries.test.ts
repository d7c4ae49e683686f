import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {SanityClient} from '@sanity/client'
import {startTestServer} from '../test/support/server.ts'
import {resolveSiteConfig} from '../shared/siteConfig.ts'
import {latestPostsQuery, postBySlugQuery, postListQuery, postPageQuery} from './queries.ts'
import {sanityNodeAttribute} from './preview/sanityNode.ts'
import {createPreviewClient, createSiteClient} from './sanity.client.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

const span = (text: string, key: string) => ({_type: 'span', _key: key, text, marks: []})
const block = (key: string, ...texts: string[]) => ({
  _type: 'block',
  _key: key,
  style: 'normal',
  markDefs: [],
  children: texts.map((text, i) => span(text, `${key}s${i}`)),
})
const post = (id: string, date: string, category: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  _type: 'post',
  title: `Title ${id}`,
  slug: {_type: 'slug', current: id},
  date,
  category,
  excerpt: `Excerpt ${id}`,
  ...extra,
})
const card = (id: string, date: string, category: string) => ({
  _id: id,
  title: `Title ${id}`,
  slug: id,
  date,
  excerpt: `Excerpt ${id}`,
  category,
})

const long = 'x'.repeat(100) + ' ' + 'y'.repeat(100)

let server: Server
let client: SanityClient

beforeAll(async () => {
  server = await startTestServer({SEED: '0'})
  await server.lake!.mutate([
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
  ])
  client = createSiteClient(resolveSiteConfig({siteUrl: server.config.siteUrl}), server.url)
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
    expect(await client.fetch(postPageQuery, {category: 'Fiction', start: 0, end: 6})).toEqual({
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
      body: [block('k1', 'Hello ', 'world.'), block('k2', long)],
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
      body: [],
      excerpt: fallback,
    })
    expect(await client.fetch(postBySlugQuery, {slug: 'a'})).toEqual({
      _id: 'a',
      title: 'Title a',
      date: '2024-01-01',
      body: null,
      excerpt: fallback,
    })
    expect(await client.fetch(postBySlugQuery, {slug: 'e'})).toBeNull()
    expect(await client.fetch(postBySlugQuery, {slug: 'nope'})).toBeNull()
  })

  it("in preview (drafts, the owner's credential) a draft is found, named for its overlays", async () => {
    const preview = createPreviewClient(
      resolveSiteConfig({siteUrl: server.config.siteUrl}),
      server.url,
      {authorization: `Bearer ${server.lake!.token}`},
    )
    const draft = await preview.fetch(postBySlugQuery, {slug: 'e'})
    expect(draft?.title).toBe('Draft')
    expect(sanityNodeAttribute({id: draft?._id ?? '', type: 'post', path: 'title'})).toBe(
      'id=e;type=post;path=title;base=%2Fstudio',
    )
    expect((await preview.fetch(postListQuery)).map((p) => p._id)).toContain(draft?._id)
  })
})
