import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// Every kind of bad input gets a clear Sanity-shaped 4xx, changes nothing, and the server
// keeps serving afterwards.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
  await t.owner.create({_id: 'keep', _type: 'x', v: 1})
})
afterAll(() => t.stop())
afterEach(async () => {
  expect(await t.anon.fetch('*[_id == "keep"][0].v')).toBe(1)
  expect(await t.owner.fetch('count(*)')).toBe(1)
})

const mutate = (body: string, headers: Record<string, string> = {}) =>
  t.fetch('/v2023-07-29/data/mutate/production', {
    method: 'POST',
    token: t.token,
    body,
    headers: {'content-type': 'application/json', ...headers},
  })

describe('queries', () => {
  it('malformed GROQ is a 400 queryParseError with start, end and the query', async () => {
    const error = await t.owner.fetch('*[_type == "x"').catch((e: unknown) => e)
    expect(error).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('GROQ query parse error'),
    })
    expect(error).toMatchObject({
      details: {
        type: 'queryParseError',
        query: '*[_type == "x"',
        start: expect.any(Number),
        end: expect.any(Number),
      },
    })
  })

  it('an unknown function is a queryParseError too', async () => {
    await expect(t.owner.fetch('nosuch::fn(1)')).rejects.toMatchObject({
      statusCode: 400,
      details: {type: 'queryParseError'},
    })
  })

  it('an unprovided $param is a queryParseError naming it', async () => {
    await expect(t.owner.fetch('*[_id == $missing]')).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('$missing'),
    })
  })

  it('a missing query, a bad JSON POST body and a malformed perspective are 400s', async () => {
    expect((await t.fetch('/v2023-07-29/data/query/production')).status).toBe(400)
    const post = await t.fetch('/v2023-07-29/data/query/production', {
      method: 'POST',
      body: '{"query": ',
    })
    expect(post.status).toBe(400)
    expect(await post.json()).toMatchObject({error: {description: expect.stringContaining('JSON')}})
    expect(
      (await t.fetch('/v2023-07-29/data/query/production?query=1&perspective=side.ways')).status,
    ).toBe(400)
    // A word that is no named perspective is a release id (a stack of one), not an error.
    expect(
      (await t.fetch('/v2023-07-29/data/query/production?query=1&perspective=sideways')).status,
    ).toBe(200)
  })

  it('a POSTed query over 1 MB is a 413', async () => {
    const res = await t.fetch('/v2023-07-29/data/query/production', {
      method: 'POST',
      body: JSON.stringify({query: '$a', params: {a: 'x'.repeat(1_100_000)}}),
    })
    expect(res.status).toBe(413)
  })
})

describe('mutations', () => {
  it('a body that is not JSON is a 400', async () => {
    const res = await mutate('{"mutations": [')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      error: {type: 'httpBadRequest', description: expect.stringContaining('not valid JSON')},
    })
  })

  it('a body over 10 MB is a 413', async () => {
    const res = await mutate(
      JSON.stringify({mutations: [{create: {_type: 'x', big: 'x'.repeat(11 * 1024 * 1024)}}]}),
    )
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({
      error: {description: expect.stringContaining('exceeds')},
    })
  })

  it('an unknown mutation type is a 400 listing the known ones', async () => {
    const error = await t.owner
      // @ts-expect-error -- a mutation type the API does not know, on purpose
      .mutate([{create: {_type: 'x', _id: 'new-1'}}, {upsert: {_id: 'keep'}}])
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('createOrReplace'),
    })
    expect(await t.owner.getDocument('new-1')).toBeUndefined()
  })

  it('empty or non-array mutations, and a document without _type, are 400s', async () => {
    expect((await mutate('{"mutations": []}')).status).toBe(400)
    expect((await mutate('{"mutations": {"create": {}}}')).status).toBe(400)
    expect((await mutate('[]')).status).toBe(400)
    await expect(t.owner.create({_id: 'no-type'} as never)).rejects.toMatchObject({statusCode: 400})
  })

  it('a malformed document id is a 400', async () => {
    await expect(t.owner.create({_id: 'has space', _type: 'x'})).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('Malformed'),
    })
    await expect(t.owner.create({_id: '-leading-dash', _type: 'x'})).rejects.toMatchObject({
      statusCode: 400,
    })
  })

  it('an invalid patch is a 400', async () => {
    await expect(
      t.owner
        .patch('keep')
        .inc({v: 'not a number' as unknown as number})
        .commit(),
    ).rejects.toMatchObject({statusCode: 400})
  })
})

describe('routing', () => {
  it('an unknown dataset is a 404 for reads and writes', async () => {
    const other = t.client({token: t.token})
    other.config({dataset: 'staging'})
    await expect(other.fetch('count(*)')).rejects.toMatchObject({
      statusCode: 404,
      message: expect.stringContaining('staging'),
    })
    await expect(other.create({_type: 'x'})).rejects.toMatchObject({statusCode: 404})
  })

  it.each(['vfoo', 'v2023-13-45', 'v2023-7-29', 'v21'])(
    'API version %s is a 400',
    async (version) => {
      const res = await t.fetch(`/${version}/data/query/production?query=1`)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        error: {description: expect.stringContaining('API version')},
      })
    },
  )
})
