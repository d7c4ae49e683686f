import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {maxOutputPixels, maxOutputSide} from './imageParams.ts'
import {maxTransformsPerClient, transformRetryAfterSeconds} from './transformQueue.ts'

// Image transforms are bounded against the real server: the output size (no 604-megapixel PNG
// for `?w=8192&h=8192&dpr=3`), and the CPU (one client's flood is queued, then refused with 429).

type Server = LakeUnderTest

let server: Server
let path: string

const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/${path}?${query}`, {headers})
const dimensions = async (res: Response) => {
  const {width, height} = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
  return {width, height}
}

beforeAll(async () => {
  server = await startLakeUnderTest({trustProxy: 'loopback'})
  // 1600 × 1200 of noise: a photo-like source, slow enough to encode that requests overlap.
  const jpeg = await sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: '#808080',
      noise: {type: 'gaussian', mean: 128, sigma: 50},
    },
  })
    .jpeg()
    .toBuffer()
  const res = await fetch(`${server.url}/v2025-02-19/assets/images/production`, {
    method: 'POST',
    headers: {authorization: `Bearer ${server.lake!.token}`, 'content-type': 'image/jpeg'},
    body: new Uint8Array(jpeg),
  })
  path = ((await res.json()) as {document: {path: string}}).document.path
})
afterAll(() => server.stop())

describe('image transform bounds', () => {
  it('refuses ?w=8192&h=8192&dpr=3 (24,576 px a side) with a 400 in Sanity’s shape', async () => {
    const res = await get('w=8192&h=8192&dpr=3&fm=png')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      error: {description: expect.stringContaining('"w" × "dpr" must be at most 8192 pixels')},
    })
  })

  it('clamps ?w=8192&h=8192 to the output caps, aspect kept, in well under the old 22 s', async () => {
    const started = performance.now()
    const res = await get('w=8192&h=8192&fm=png')
    const ms = performance.now() - started
    expect(res.status).toBe(200)
    const {width = 0, height = 0} = await dimensions(res)
    expect(Math.max(width, height)).toBeLessThanOrEqual(maxOutputSide)
    expect(width * height).toBeLessThanOrEqual(maxOutputPixels)
    expect(width / height).toBeCloseTo(4 / 3, 2)
    // The cap, not the clock, is the property; the bound only catches a return of the 22 s.
    expect(ms).toBeLessThan(15_000)
    console.info(`[images] w=8192&h=8192 → ${width}×${height} PNG in ${Math.round(ms)} ms`)
  })

  it('clamps every fit mode, and never enlarges with max', async () => {
    for (const fit of ['clip', 'crop', 'fill', 'scale', 'min', 'fillmax', 'max']) {
      const {width = 0, height = 0} = await dimensions(await get(`w=8192&h=2000&fit=${fit}&fm=jpg`))
      expect(Math.max(width, height), fit).toBeLessThanOrEqual(maxOutputSide)
      expect(width * height, fit).toBeLessThanOrEqual(maxOutputPixels)
    }
    expect(await dimensions(await get('w=2000&fit=max&fm=jpg'))).toEqual({
      width: 1600,
      height: 1200,
    })
    expect(await dimensions(await get('w=2000&fm=jpg'))).toEqual({width: 2000, height: 1500})
  })

  it('answers URLs that differ only in what cannot change the output with the same bytes', async () => {
    const bytes = async (query: string) => Buffer.from(await (await get(query)).arrayBuffer())
    expect((await bytes('w=100&q=71&fm=jpg')).equals(await bytes('w=100&q=70&fm=jpg'))).toBe(true)
    expect((await bytes('w=100&fm=png&q=10')).equals(await bytes('fm=png&q=90&w=100'))).toBe(true)
  })

  it('queues one client’s flood and refuses it past its share with 429 and Retry-After', async () => {
    const flood = Array.from({length: 40}, (_, i) =>
      get(`w=${1000 + i}&fm=png`, {'x-forwarded-for': '198.51.100.7'}),
    )
    const bystander = get('w=64&fm=png', {'x-forwarded-for': '203.0.113.9'})
    const answers = await Promise.all(flood)
    // Another client, arriving in the middle of the flood, is queued and served.
    expect((await bystander).status).toBe(200)
    const statuses = answers.map((res) => res.status)
    const refused = answers.filter((res) => res.status === 429)
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(
      maxTransformsPerClient,
    )
    expect(refused.length).toBeGreaterThan(0)
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true)
    for (const res of refused) {
      expect(res.headers.get('retry-after')).toBe(String(transformRetryAfterSeconds))
      expect(await res.json()).toMatchObject({error: {type: 'tooManyRequests'}})
    }
    await Promise.all(answers.map((res) => (res.bodyUsed ? undefined : res.body?.cancel())))
    // The flooder is served again once its queue drained.
    expect((await get('w=65&fm=png', {'x-forwarded-for': '198.51.100.7'})).status).toBe(200)
  })
})
