import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// The CDN-style response cache in front of anonymous queries, as the public site uses it.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
  await t.owner.create({_id: 'c1', _type: 'post', title: 'Before'})
})
afterAll(() => t.stop())

const path = `/v2023-07-29/data/query/production?query=${encodeURIComponent('*[_id == "c1"][0].title')}`

describe('CDN cache', () => {
  it('serves a repeated anonymous query from the cache until the next commit', async () => {
    expect(await t.anon.fetch('*[_id == "c1"][0].title')).toBe('Before')
    const miss = await t.fetch(path)
    const hit = await t.fetch(path)
    expect([miss.headers.get('x-cache'), hit.headers.get('x-cache')]).toEqual(['MISS', 'HIT'])
    expect(await hit.text()).toBe(await miss.text())
    // A commit empties the cache: the next anonymous read shows the newest content.
    await t.owner.patch('c1').set({title: 'After'}).commit()
    const fresh = await t.fetch(path)
    expect(fresh.headers.get('x-cache')).toBe('MISS')
    expect((await fresh.json()).result).toBe('After')
    expect(await t.anon.fetch('*[_id == "c1"][0].title')).toBe('After')
    expect((await t.fetch(path, {token: t.token})).headers.get('x-cache')).toBe('BYPASS')
  })

  it('answers If-None-Match with 304 until the content changes', async () => {
    const first = await t.fetch(path)
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag') ?? ''
    expect(etag).not.toBe('')
    expect(first.headers.get('cache-control')).toMatch(/public/)
    const again = await t.fetch(path, {headers: {'if-none-match': etag}})
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    await t.owner.patch('c1').set({title: 'Changed'}).commit()
    const changed = await t.fetch(path, {headers: {'if-none-match': etag}})
    expect(changed.status).toBe(200)
    expect((await changed.json()).result).toBe('Changed')
    expect(changed.headers.get('etag')).not.toBe(etag)
  })

  it('never caches or shares authenticated answers', async () => {
    const res = await t.fetch(path, {token: t.token})
    expect(res.headers.get('cache-control')).toMatch(/private/)
    const drafts = await t.fetch(
      `/v2023-07-29/data/query/production?query=${encodeURIComponent('count(*)')}`,
      {token: t.token},
    )
    await t.owner.create({_id: 'drafts.c2', _type: 'post'})
    const anon = await t.anon.fetch('count(*)')
    expect((await drafts.json()).result).toBe(1)
    expect(anon).toBe(1)
    expect(await t.owner.fetch('count(*)')).toBe(2)
  })

  it('keys the cache by params and perspective', async () => {
    await t.owner.create({_id: 'c3', _type: 'post', title: 'Third'})
    expect(await t.anon.fetch('*[_id == $id][0].title', {id: 'c1'})).toBe('Changed')
    expect(await t.anon.fetch('*[_id == $id][0].title', {id: 'c3'})).toBe('Third')
    const q = `?query=${encodeURIComponent('*[_id == "c1"][0]._originalId')}`
    const raw = await t.fetch(`/v2023-07-29/data/query/production${q}&perspective=raw`)
    const drafts = await t.fetch(`/v2023-07-29/data/query/production${q}&perspective=drafts`)
    expect([(await raw.json()).result, (await drafts.json()).result]).toEqual([null, 'c1'])
  })
})
