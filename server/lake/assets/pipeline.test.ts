import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {deflateSync} from 'node:zlib'
import type {SanityClient} from '@sanity/client'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {coldPixelsPerMinute, minColdPixels} from './coldBudget.ts'
import {handMadePng} from '../../../test/support/handMadePng.ts'

/** Small cold variants one client may ask for in a minute: each counts as `minColdPixels`. */
const coldTransformsPerMinute = coldPixelsPerMinute / minColdPixels

/** A picture whose top half is red and bottom half blue when upright. */
async function redOverBlue(width: number, height: number): Promise<Buffer> {
  const half = await sharp({create: {width, height: height / 2, channels: 3, background: '#f00'}})
    .png()
    .toBuffer()
  return sharp({create: {width, height, channels: 3, background: '#00f'}})
    .composite([{input: half, top: 0, left: 0}])
    .png()
    .toBuffer()
}

/** A phone's portrait photo: stored sideways (`width` × `height` raw), EXIF orientation 6. */
async function orientation6(width: number, height: number): Promise<Buffer> {
  const upright = await redOverBlue(height, width)
  return sharp(upright).rotate(270).jpeg({quality: 90}).withMetadata({orientation: 6}).toBuffer()
}

/** The colour of the pixel at (x, y) of an encoded image, as '#rrggbb' rounded to red/blue. */
async function colourAt(bytes: Buffer, x: number, y: number): Promise<string> {
  const {data, info} = await sharp(bytes).raw().toBuffer({resolveWithObject: true})
  const i = (y * info.width + x) * info.channels
  return data[i] > data[i + 2] ? 'red' : 'blue'
}

/** A few hundred bytes declaring a 50,000 × 50,000 RGB PNG: a decompression bomb. */
function bombPng(): Buffer {
  return handMadePng(50_000, 50_000, 2, deflateSync(Buffer.alloc(50_001)))
}

interface Asset {
  _id: string
  path: string
  url: string
  metadata: {
    dimensions: {width: number; height: number}
    hasAlpha: boolean
    isOpaque: boolean
    lqip: string
    palette: {dominant: {background: string; foreground: string}}
  }
}

const lqipBytes = (lqip: string) => Buffer.from(lqip.replace(/^data:[^,]+,/, ''), 'base64')

describe('the lake’s image pipeline (real sharp, real lake, @sanity/client)', () => {
  let server: LakeUnderTest
  let owner: SanityClient
  const get = (path: string, accept = 'image/avif,image/webp,*/*') =>
    fetch(`${server.url}/${path}`, {headers: {accept}})
  const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer())
  const upload = async (bytes: Buffer, filename: string) =>
    (await owner.assets.upload('image', bytes, {filename})) as unknown as Asset

  beforeAll(async () => {
    server = await startLakeUnderTest()
    owner = server.owner
  })
  afterAll(() => server.stop())

  it('an EXIF orientation 6 photo is upright everywhere: id, dimensions, LQIP, variants and rect', async () => {
    const asset = await upload(await orientation6(400, 200), 'phone.jpg')
    expect(asset._id).toMatch(/-200x400-jpg$/)
    expect(asset.path).toMatch(/-200x400\.jpg$/)
    expect(asset.metadata.dimensions).toMatchObject({width: 200, height: 400})
    const lqip = await sharp(lqipBytes(asset.metadata.lqip)).metadata()
    expect(lqip.height).toBeGreaterThan(lqip.width)
    const narrow = await bytesOf(await get(`${asset.path}?w=100`))
    expect(await sharp(narrow).metadata()).toMatchObject({width: 100, height: 200})
    expect(await colourAt(narrow, 50, 10)).toBe('red')
    expect(await colourAt(narrow, 50, 190)).toBe('blue')
    // The bottom square of the upright picture, as image-url's rect would ask for it.
    const bottom = await bytesOf(await get(`${asset.path}?rect=0,200,200,200&w=50&fm=png`))
    expect(await sharp(bottom).metadata()).toMatchObject({width: 50, height: 50})
    expect(await colourAt(bottom, 25, 5)).toBe('blue')
  })

  it('alpha: hasAlpha and isOpaque from the pixels, an LQIP that keeps alpha, the dominant colour', async () => {
    const clear = await sharp({
      create: {width: 60, height: 40, channels: 4, background: {r: 200, g: 30, b: 30, alpha: 0.3}},
    })
      .png()
      .toBuffer()
    const seeThrough = await upload(clear, 'clear.png')
    expect(seeThrough.metadata).toMatchObject({hasAlpha: true, isOpaque: false})
    expect(seeThrough.metadata.lqip).toMatch(/^data:image\/png;base64,/)
    expect((await sharp(lqipBytes(seeThrough.metadata.lqip)).metadata()).hasAlpha).toBe(true)
    // An RGBA file whose every pixel is opaque: hasAlpha, yet isOpaque (as Sanity reports).
    const solid = await sharp({
      create: {width: 60, height: 40, channels: 4, background: {r: 20, g: 90, b: 200, alpha: 1}},
    })
      .png()
      .toBuffer()
    const opaque = await upload(solid, 'solid.png')
    expect(opaque.metadata).toMatchObject({hasAlpha: true, isOpaque: true})
    expect(opaque.metadata.palette.dominant).toMatchObject({
      background: expect.stringMatching(/^#[0-9a-f]{6}$/),
      foreground: '#fff',
    })
    const variant = await get(`${seeThrough.path}?w=30&fm=png`)
    expect((await sharp(await bytesOf(variant)).metadata()).hasAlpha).toBe(true)
  })

  it('fit=crop with crop=focalpoint and fp-x/fp-y keeps the side the focal point is on', async () => {
    const leftRight = await sharp(await redOverBlue(100, 200))
      .rotate(90)
      .png()
      .toBuffer()
    // 200 × 100: blue on the left, red on the right.
    const asset = await upload(leftRight, 'sides.png')
    const crop = (x: number) =>
      get(`${asset.path}?w=40&h=80&fit=crop&crop=focalpoint&fp-x=${x}&fp-y=0.5&fm=png`)
    const right = await bytesOf(await crop(0.95))
    expect(await sharp(right).metadata()).toMatchObject({width: 40, height: 80})
    expect(await colourAt(right, 2, 40)).toBe('red')
    expect(await colourAt(await bytesOf(await crop(0.05)), 38, 40)).toBe('blue')
    expect((await crop(1.5)).status).toBe(400)
  })

  it('a vanity file name after the asset’s name serves the same image', async () => {
    const asset = await upload(await redOverBlue(40, 40), 'vanity.png')
    const plain = await get(`${asset.path}?w=20`)
    const vanity = await get(`${asset.path}/my-picture.png?w=20`)
    expect(vanity.status).toBe(200)
    expect((await bytesOf(vanity)).equals(await bytesOf(plain))).toBe(true)
  })

  it('auto=format serves AVIF, else WebP, to a browser that takes it, the source format otherwise', async () => {
    const asset = await upload(await orientation6(300, 100), 'auto.jpg')
    const avif = await get(`${asset.path}?w=50&auto=format`)
    expect(avif.headers.get('content-type')).toBe('image/avif')
    expect(avif.headers.get('vary')).toBe('Accept')
    expect(await sharp(await bytesOf(avif)).metadata()).toMatchObject({width: 50, height: 150})
    const webp = await get(`${asset.path}?w=50&auto=format`, 'image/webp,*/*')
    expect(webp.headers.get('content-type')).toBe('image/webp')
    const jpeg = await get(`${asset.path}?w=50&auto=format`, 'image/jpeg,*/*')
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
  })

  it('the Studio’s asset browser query lists uploaded images on the lake', async () => {
    // Built as sanity's SelectAssetsComponent builds it for accept="image/jpeg,image/png,…".
    const query = `
  *[_type == "sanity.imageAsset" &&
  (
    
    extension in [] ||
    mimeType in ['image/avif', 'image/webp', 'image/png', 'image/jpeg', ]
  )] | order(_updatedAt desc) [0...200] {
    _id, _updatedAt, _createdAt, url, originalFilename, mimeType, extension, size,
    metadata {dimensions}
  }
`
    const assets = await owner.fetch<Array<{originalFilename: string; url: string}>>(query)
    expect(assets.map((asset) => asset.originalFilename)).toEqual(
      expect.arrayContaining(['phone.jpg', 'clear.png', 'vanity.png']),
    )
    const thumbnail = await fetch(`${assets[0].url}?h=400&fit=max`)
    expect(thumbnail.status).toBe(200)
  })

  it('a flood of distinct variants from one client is cut off with 429s; cached ones still serve', async () => {
    const asset = await upload(await redOverBlue(64, 64), 'flood.png')
    const first = await get(`${asset.path}?w=1&fm=png`)
    expect(first.status).toBe(200)
    let refused: Response | undefined
    let served = 1
    for (let w = 2; w <= coldTransformsPerMinute + 1 && !refused; w++) {
      const res = await get(`${asset.path}?w=${w}&fm=png`)
      if (res.status === 200) {
        served++
        await res.arrayBuffer()
      } else refused = res
    }
    expect(served).toBeLessThanOrEqual(coldTransformsPerMinute)
    expect(refused?.status).toBe(429)
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused?.json()).toMatchObject({error: {type: 'tooManyRequests'}})
    expect((await get(`${asset.path}?w=1&fm=png`)).status).toBe(200)
  })

  describe('bad uploads: a 400 each, nothing stored', () => {
    const cases: Array<[string, () => Promise<Buffer>, string, RegExp]> = [
      [
        'a decompression bomb (50,000 × 50,000 declared)',
        async () => bombPng(),
        'image/png',
        /megapixels/,
      ],
      [
        'a truncated JPEG',
        async () => {
          const noise = await sharp({
            create: {
              width: 300,
              height: 300,
              channels: 3,
              background: '#888',
              noise: {type: 'gaussian', mean: 128, sigma: 60},
            },
          })
            .jpeg()
            .toBuffer()
          return noise.subarray(0, Math.floor(noise.length / 2))
        },
        'image/jpeg',
        /truncated or corrupt/,
      ],
      [
        'PNG bytes sent as image/jpeg',
        () => redOverBlue(20, 20),
        'image/jpeg',
        /says it is image\/jpeg/,
      ],
      [
        'an SVG with script',
        async () =>
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
          ),
        'image/svg+xml',
        /script/,
      ],
      [
        'an SVG with <s:script> (security review 3, L4)',
        async () =>
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg" width="10" height="10"><s:script>alert(1)</s:script></svg>',
          ),
        'image/svg+xml',
        /s:script/,
      ],
      [
        'an SVG with xlink:href="javascript&#58;…" (security review 3, L4)',
        async () =>
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><a xlink:href="javascript&#58;alert(1)"><rect width="10" height="10"/></a></svg>',
          ),
        'image/svg+xml',
        /non-image address/,
      ],
    ]
    for (const [name, make, type, message] of cases) {
      it(name, async () => {
        const revision = server.lake.revision
        const files = readdirSync(join(server.dataDir, 'assets', 'images')).length
        const res = await fetch(`${server.url}/v2025-02-19/assets/images/production`, {
          method: 'POST',
          headers: {'content-type': type, authorization: `Bearer ${server.token}`},
          body: new Uint8Array(await make()),
        })
        expect(res.status).toBe(400)
        expect(await res.json()).toMatchObject({
          error: {description: expect.stringMatching(message)},
        })
        expect(server.lake.revision).toBe(revision)
        expect(readdirSync(join(server.dataDir, 'assets', 'images'))).toHaveLength(files)
      })
    }
  })
})

describe('variants survive a restart (the disk cache)', () => {
  it('a restarted server answers a variant from DATA_DIR/cache/images', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'images-restart-'))
    try {
      let server = await startLakeUnderTest({dataDir})
      const asset = (await server.owner.assets.upload('image', await redOverBlue(80, 80), {
        filename: 'warm.png',
      })) as unknown as Asset
      const variantPath = `${asset.path}?w=40&fm=png`
      expect((await fetch(`${server.url}/${variantPath}`)).status).toBe(200)
      await server.imagesIdle()
      await server.stop()
      const cacheDir = join(dataDir, 'cache', 'images')
      // The AVIF the upload pre-rendered for the site's pages is in cache/site-images (variantTiers.ts).
      const cached = readdirSync(cacheDir).filter((name) => name.endsWith('.png'))
      expect(cached).toHaveLength(1)
      // Marks the cached file, so an answer with the mark can only have come from the disk.
      const marked = await sharp({create: {width: 3, height: 3, channels: 3, background: '#0f0'}})
        .png()
        .toBuffer()
      writeFileSync(join(cacheDir, cached[0]), marked)
      server = await startLakeUnderTest({dataDir})
      const again = Buffer.from(await (await fetch(`${server.url}/${variantPath}`)).arrayBuffer())
      expect(again.equals(marked)).toBe(true)
      await server.stop()
    } finally {
      rmSync(dataDir, {recursive: true, force: true})
    }
  })
})
