import {Hono} from 'hono'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {errorResponse} from '../../http/errorResponse.ts'
import {CachedBody} from '../../http/cachedBody.ts'
import {QueryCache, maxCacheBytes} from './queryCache.ts'
import {registerDataApi} from './dataApi.ts'

// The anonymous query cache: bounded in bytes, and kept warm by commits of private documents.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
  await t.owner.create({_id: 'q1', _type: 'post', title: 'Public'})
})
afterAll(() => t.stop())

const get = (groq: string) =>
  t.fetch(`/v2023-07-29/data/query/production?query=${encodeURIComponent(groq)}`)

describe('query cache', () => {
  it('evicts the least recently used entries to stay under its byte cap', () => {
    const cache = new QueryCache({maxBytes: 10_000, maxEntryBytes: 4_000})
    const body = new CachedBody(Buffer.from('x'.repeat(1_000)), {etag: '"e"', compress: false})
    for (let i = 0; i < 50; i++) {
      cache.set(`k${i}`, body)
      if (i === 1) expect(cache.get('k0')).toBeDefined()
    }
    expect(cache.bytes).toBeLessThanOrEqual(10_000)
    expect(cache.size).toBeLessThan(10)
    expect(cache.get('k49')).toBe(body)
    // An answer over the entry cap is served but never kept.
    cache.set('big', new CachedBody(Buffer.from('y'.repeat(5_000)), {compress: false}))
    expect(cache.get('big')).toBeUndefined()
  })

  it('does not keep an answer evaluated across a public commit (it may not show it)', () => {
    const cache = new QueryCache()
    const body = new CachedBody(Buffer.from('{"result":null}'), {etag: '"e"', compress: false})
    const before = cache.generation
    cache.clear() // a public commit lands while the answer is being evaluated
    cache.set('asked-before', body, before)
    expect(cache.get('asked-before')).toBeUndefined()
    cache.set('asked-after', body, cache.generation)
    expect(cache.get('asked-after')).toBe(body)
  })

  it('keeps many large anonymous answers within its cap', async () => {
    // 80 distinct answers of ~0.45 MB each would be ~36 MiB: the cache keeps 32 MiB.
    await t.owner.create({_id: 'big', _type: 'blob', text: 'z'.repeat(450_000)})
    const app = new Hono()
    app.onError((error, c) => errorResponse(error, c))
    const {cache, close} = registerDataApi(app, t.lake)
    try {
      for (let i = 0; i < 80; i++) {
        const groq = `*[_id == "big"][0]{"n": ${i}, text}`
        const res = await app.request(
          `/v2023-07-29/data/query/production?query=${encodeURIComponent(groq)}`,
        )
        expect(res.status).toBe(200)
        await res.arrayBuffer()
      }
      expect(cache.size).toBeGreaterThan(10)
      expect(cache.bytes).toBeLessThanOrEqual(maxCacheBytes)
    } finally {
      close()
    }
  })

  it('stays warm across commits of drafts and contact messages, and empties on a public one', async () => {
    const groq = '*[_id == "q1"][0].title'
    expect((await get(groq)).headers.get('x-cache')).toBe('MISS')
    expect((await get(groq)).headers.get('x-cache')).toBe('HIT')
    await t.owner.create({_id: 'drafts.q1', _type: 'post', title: 'Draft'})
    await t.owner.create({_id: 'inbox.m1', _type: 'contactMessage', message: 'Hello'})
    const warm = await get(groq)
    expect(warm.headers.get('x-cache')).toBe('HIT')
    expect((await warm.json()).result).toBe('Public')
    await t.owner.patch('q1').set({title: 'Changed'}).commit()
    const fresh = await get(groq)
    expect(fresh.headers.get('x-cache')).toBe('MISS')
    expect((await fresh.json()).result).toBe('Changed')
  })
  it("gives a visitor's answer an ETag that private commits do not move (review 3, I1)", async () => {
    // A query no cache holds yet, before and after a commit of a draft and a private document.
    const etag = async (nonce: number) =>
      (await get(`*[_id == "q1" && ${nonce} > 0][0].title`)).headers.get('etag')
    const before = await etag(1)
    await t.owner.createOrReplace({_id: 'drafts.q1', _type: 'post', title: 'Another draft'})
    await t.owner.create({_id: 'inbox.m2', _type: 'contactMessage', message: 'Hi'})
    expect(await etag(1)).toBe(before)
    expect(await etag(2)).toBe(before)
    // An answer that changes gets a new one.
    await t.owner.patch('q1').set({title: 'Changed again'}).commit()
    expect(await etag(3)).not.toBe(before)
  })
})
