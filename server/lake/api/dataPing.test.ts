import {afterAll, beforeAll, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// The document footer's latency probe: a 2xx with a shard name, for anyone, on the lake's dataset.
let t: LakeUnderTest
beforeAll(async () => {
  t = await startLakeUnderTest()
})
afterAll(() => t.stop())

it('answers the ping as JSON with a shard name, without a token, as the Studio fetches it', async () => {
  const res = await t.fetch('/v2025-02-19/data/ping/production')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(res.headers.get('x-sanity-shard')).toBe('local')
  expect(await res.json()).toBe('PONG')
})

it('answers another dataset with a Sanity-shaped 404 and a malformed version with a 400', async () => {
  const other = await t.fetch('/v2025-02-19/data/ping/staging')
  expect(other.status).toBe(404)
  expect((await other.json()).error.description).toMatch(/staging/)
  const badVersion = await t.fetch('/v2025-13-45/data/ping/production')
  expect(badVersion.status).toBe(400)
  expect((await badVersion.json()).error.type).toBe('httpBadRequest')
})
