import {afterAll, beforeAll, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// Help → Diagnostics asks for the caller's country; a local lake knows none and says so in JSON.
let t: LakeUnderTest
beforeAll(async () => {
  t = await startLakeUnderTest()
})
afterAll(() => t.stop())

it('answers the country lookup with an unknown country, without a token', async () => {
  const res = await t.fetch('/v2025-02-19/geoip/country')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(await res.json()).toEqual({isoCode: null})
})

it('answers other GeoIP paths and methods with a Sanity-shaped 404, not the site page', async () => {
  for (const [method, path] of [
    ['GET', '/v2025-02-19/geoip/city'],
    ['POST', '/v2025-02-19/geoip/country'],
  ]) {
    const res = await t.fetch(path, {method, ...(method === 'POST' ? {body: '{}'} : {})})
    expect(res.status, path).toBe(404)
    expect((await res.json()).error.type, path).toBe('httpNotFound')
  }
})

it('refuses a malformed API version with a Sanity-shaped 400, not the site page', async () => {
  const res = await t.fetch('/v2025-02-30/geoip/country')
  expect(res.status).toBe(400)
  expect((await res.json()).error.type).toBe('httpBadRequest')
})
