import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import sharp from 'sharp'
import {afterAll, describe, expect, it} from 'vitest'
import {boundedParams, parseImageParams} from './imageParams.ts'
import {transform} from './transform.ts'

const dir = mkdtempSync(join(tmpdir(), 'transform-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

/** A 1200 × 800 upright picture with detail everywhere, stored sideways with EXIF orientation 6. */
async function sidewaysPhoto(): Promise<string> {
  const upright = await sharp({
    create: {
      width: 120,
      height: 80,
      channels: 3,
      background: '#777',
      noise: {type: 'gaussian', mean: 128, sigma: 60},
    },
  })
    .resize(1200, 800, {kernel: 'cubic'})
    .png()
    .toBuffer()
  const path = join(dir, 'sideways.jpg')
  writeFileSync(
    path,
    await sharp(upright).rotate(270).jpeg({quality: 95}).withMetadata({orientation: 6}).toBuffer(),
  )
  return path
}

/** Mean absolute difference of two same-sized images' pixels, 0–255. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all(
    [a, b].map((bytes) => sharp(bytes).removeAlpha().raw().toBuffer()),
  )
  let sum = 0
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i] - y[i])
  return sum / x.length
}

describe('transform', () => {
  it('a rect scaled down (resize, then cut) is the picture that cutting, then resizing gives', async () => {
    const path = await sidewaysPhoto()
    const upright = {width: 1200, height: 800}
    // As @sanity/image-url asks for a 16:9 card of a crop: the rect has the output's shape.
    const params = boundedParams(
      parseImageParams({rect: '96,120,960,540', w: '320', h: '180', fit: 'crop', fm: 'png'}),
      upright,
    )
    const fast = await transform(path, params, 'png', upright)
    const reference = await sharp(path)
      .rotate()
      .extract({left: 96, top: 120, width: 960, height: 540})
      .resize(320, 180)
      .png()
      .toBuffer()
    expect(await sharp(fast.bytes).metadata()).toMatchObject({width: 320, height: 180})
    expect(await difference(fast.bytes, reference)).toBeLessThan(4)
  })

  it('encodes AVIF and WebP that decode at the asked size', async () => {
    const path = await sidewaysPhoto()
    const params = boundedParams(parseImageParams({w: '200'}), {width: 1200, height: 800})
    for (const format of ['avif', 'webp'] as const) {
      const out = await transform(path, params, format, {width: 1200, height: 800})
      expect(out.type).toBe(`image/${format}`)
      expect(await sharp(out.bytes).metadata()).toMatchObject({
        format: format === 'avif' ? 'heif' : 'webp',
        width: 200,
        height: 133,
      })
    }
  })
})
