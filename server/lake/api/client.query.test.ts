import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// The real @sanity/client against a listening lake: queries, params, perspectives, access.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
  await t.owner
    .transaction()
    .create({_id: 'p1', _type: 'post', title: 'Published one', n: 1})
    .create({_id: 'drafts.p1', _type: 'post', title: 'Draft of one', n: 1})
    .create({_id: 'drafts.p2', _type: 'post', title: 'Draft only', n: 2})
    .create({_id: 'p3', _type: 'post', title: 'Published three', n: 3})
    .create({_id: 'inbox.m1', _type: 'message', title: 'A private message'})
    .commit()
})
afterAll(() => t.stop())

const ids = '*[] | order(_id) ._id'

describe('query', () => {
  it('answers GET queries with params of every JSON type', async () => {
    const result = await t.owner.fetch(
      '{"n": *[_type == $type && n >= $min] | order(n) .n, "echo": [$s, $b, $nil, $arr, $obj]}',
      {
        type: 'post',
        min: 2,
        s: 'a "quoted" & ünïcödé string?',
        b: true,
        nil: null,
        arr: [1, 'two', [3]],
        obj: {nested: {deep: 1.5}},
      },
    )
    // API 2023-07-29 defaults to raw: the owner sees drafts.p2 (n = 2) too.
    expect(result).toEqual({
      n: [2, 3],
      echo: ['a "quoted" & ünïcödé string?', true, null, [1, 'two', [3]], {nested: {deep: 1.5}}],
    })
  })

  it('answers the same query with different param values differently (parse cache)', async () => {
    // groq-js folds params into the parsed tree; a cache keyed by names alone served stale answers.
    for (const client of [t.owner, t.anon]) {
      expect(await client.fetch('*[_id == $id][0].title', {id: 'p1'})).toBe('Published one')
      expect(await client.fetch('*[_id == $id][0].title', {id: 'p3'})).toBe('Published three')
      expect(
        await client.fetch('*[_type == "post"] | order(n) [$from...$to].n', {from: 0, to: 1}),
      ).toHaveLength(1)
    }
  })

  it('answers a query too long for a URL, which the client POSTs', async () => {
    // Over 11264 characters the client switches to POST; 30 kB would not fit in a GET's headers.
    const long = 'x'.repeat(30_000)
    const result = await t.anon.fetch(
      '{"len": length($long), "titles": *[_type == "post"] | order(n) .title}',
      {long},
    )
    expect(result).toEqual({len: 30_000, titles: ['Published one', 'Published three']})
  })

  it('returns the query with filterResponse: false unless returnQuery is false', async () => {
    const full = await t.owner.fetch('count(*[_type == $t])', {t: 'post'}, {filterResponse: false})
    expect(full).toMatchObject({query: 'count(*[_type == $t])', result: 4})
    expect(typeof full.ms).toBe('number')
    const bare = await t.owner.fetch('count(*)', {}, {filterResponse: false, returnQuery: false})
    expect(bare).not.toHaveProperty('query')
    expect(bare.result).toBe(5)
  })

  it('answers an invalid $param in the query string with a 400', async () => {
    const res = await t.fetch('/v2023-07-29/data/query/production?query=%24a&%24a=%7Bnot-json')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({error: {description: expect.stringContaining('$a')}})
  })
})

describe('evaluation (groq-js synchronously first, then asynchronously: server/lake/groq.ts)', () => {
  it('answers a query only the asynchronous evaluation can (diff::), as groq-js does', async () => {
    // groq-js has no synchronous diff:: functions; its asynchronous evaluation answers true.
    expect(await t.owner.fetch('diff::changedAny({"a": 1}, {"a": 2}, (a))')).toBe(true)
  })

  it('answers a runtime error with a 400 queryError, whichever evaluation meets it', async () => {
    // groq-js throws "unexpected boost" at runtime for a boost() outside score().
    await expect(t.owner.fetch('*[_type == "post"]{"x": boost(n == 1, 2)}')).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('unexpected boost'),
    })
  })
})

describe('perspectives', () => {
  it('raw shows every document to the owner, only published ids to anonymous readers', async () => {
    expect(await t.owner.fetch(ids, {}, {perspective: 'raw'})).toEqual([
      'drafts.p1',
      'drafts.p2',
      'inbox.m1',
      'p1',
      'p3',
    ])
    expect(await t.anon.fetch(ids, {}, {perspective: 'raw'})).toEqual(['p1', 'p3'])
  })

  it('published hides drafts (and versions); other private ids stay visible to the owner', async () => {
    expect(await t.owner.fetch(ids, {}, {perspective: 'published'})).toEqual([
      'inbox.m1',
      'p1',
      'p3',
    ])
    expect(await t.anon.fetch(ids, {}, {perspective: 'published'})).toEqual(['p1', 'p3'])
  })

  it.each(['drafts', 'previewDrafts'] as const)(
    '%s overlays drafts on published ids for the owner only',
    async (perspective) => {
      const q = '*[_type == "post"] | order(_id) {_id, _originalId, title}'
      expect(await t.owner.fetch(q, {}, {perspective})).toEqual([
        {_id: 'p1', _originalId: 'drafts.p1', title: 'Draft of one'},
        {_id: 'p2', _originalId: 'drafts.p2', title: 'Draft only'},
        {_id: 'p3', _originalId: 'p3', title: 'Published three'},
      ])
      const anon = t.client({useCdn: false})
      expect(await anon.fetch(q, {}, {perspective})).toEqual([
        {_id: 'p1', _originalId: 'p1', title: 'Published one'},
        {_id: 'p3', _originalId: 'p3', title: 'Published three'},
      ])
    },
  )

  it('anonymous readers never see a dotted id, whatever the query or perspective', async () => {
    for (const perspective of ['raw', 'published', 'drafts', 'previewDrafts'] as const) {
      const anon = t.client({useCdn: false})
      expect(await anon.fetch('*[_id in path("**")]._id', {}, {perspective})).not.toContainEqual(
        expect.stringContaining('.'),
      )
      expect(
        await anon.fetch('*[_id == "inbox.m1" || _id == "drafts.p1"]', {}, {perspective}),
      ).toEqual([])
    }
  })

  it('defaults to raw before API version 2025-02-19 and to published from it on', async () => {
    expect(await t.client({token: t.token, apiVersion: '2025-02-18'}).fetch(ids)).toHaveLength(5)
    expect(await t.client({token: t.token, apiVersion: '2025-02-19'}).fetch(ids)).toEqual([
      'inbox.m1',
      'p1',
      'p3',
    ])
    expect(await t.client({token: t.token, apiVersion: 'X'}).fetch(ids)).toEqual([
      'inbox.m1',
      'p1',
      'p3',
    ])
  })
})

describe('doc endpoint', () => {
  it('returns documents and omits missing ones with a reason', async () => {
    const docs = await t.owner.getDocuments(['p1', 'missing', 'drafts.p1'])
    expect(docs.map((d) => d?._id ?? null)).toEqual(['p1', null, 'drafts.p1'])
    expect(await t.owner.getDocument('p3')).toMatchObject({
      _id: 'p3',
      title: 'Published three',
      _rev: expect.any(String),
    })
    expect(await t.owner.getDocument('missing')).toBeUndefined()
  })

  it('omits private ids for anonymous readers with reason "permission"', async () => {
    const res = await t.fetch('/v2023-07-29/data/doc/production/p1,inbox.m1,drafts.p1,nope')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.documents.map((d: {_id: string}) => d._id)).toEqual(['p1'])
    expect(body.omitted).toEqual([
      {id: 'inbox.m1', reason: 'permission'},
      {id: 'drafts.p1', reason: 'permission'},
      {id: 'nope', reason: 'existence'},
    ])
  })
})
