import {mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {localImageBuilder, siteVariantUrls, type ShownImage} from '../../../shared/imageUrl.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

const readers = 'image/avif,image/webp,*/*'

/** A 1600 × 1000 photo-like JPEG (noise, so it is not a flat fill); `seed` makes it distinct. */
const photo = (seed: number) =>
  sharp({
    create: {
      width: 1600,
      height: 1000,
      channels: 3,
      background: {r: seed, g: 90, b: 140},
      noise: {type: 'gaussian', mean: 100 + seed, sigma: 30},
    },
  })
    .jpeg()
    .toBuffer()

describe('pre-rendering: a published post’s variants are rendered before its first reader', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'images-prerender-'))
  let lake: LakeUnderTest
  const builder = localImageBuilder({projectId: 'scriptorium', dataset: 'production'})
  const upload = async (seed: number) =>
    (await lake.owner.assets.upload('image', await photo(seed), {filename: `p${seed}.jpg`}))._id
  /** How each variant is answered now: X-Cache (hit, disk, miss) and the type. */
  const answers = (urls: string[]) =>
    Promise.all(
      urls.map(async (url) => {
        const res = await fetch(`${lake.url}${url}`, {headers: {accept: readers}})
        await res.arrayBuffer()
        return `${res.status} ${res.headers.get('x-cache')} ${res.headers.get('content-type')}`
      }),
    )

  beforeAll(async () => {
    lake = await startLakeUnderTest({dataDir})
  })
  afterAll(async () => {
    await lake.stop()
    rmSync(dataDir, {recursive: true, force: true})
  })

  it('an upload’s column widths, then a post’s cover, card, share card and body images', async () => {
    const uploaded = await upload(10)
    await lake.imagesIdle()
    const column = siteVariantUrls(builder, {asset: {_id: uploaded}}, 'body')
    expect(column.length).toBeGreaterThanOrEqual(3)
    // AVIF up to 1280 × 800 (imageParams.ts maxAvifPixels), WebP past it; all from memory.
    expect(await answers(column)).toEqual([
      ...column.slice(0, -1).map(() => '200 hit image/avif'),
      '200 hit image/webp',
    ])

    const cover: ShownImage = {
      asset: {_id: await upload(20)},
      crop: {top: 0.1, bottom: 0, left: 0.05, right: 0.05},
      hotspot: {x: 0.6, y: 0.4, width: 0.3, height: 0.3},
    }
    const inline: ShownImage = {
      asset: {_id: uploaded},
      crop: {top: 0, bottom: 0.2, left: 0, right: 0},
    }
    await lake.imagesIdle()
    const ref = (image: ShownImage) => ({
      asset: {_type: 'reference', _ref: image.asset._id},
      crop: image.crop,
      hotspot: image.hotspot ?? undefined,
    })
    // A draft is not pre-rendered; its publication is.
    const post = {
      _type: 'post',
      title: 'Pictures',
      slug: {current: 'pictures'},
      mainImage: {_type: 'image', ...ref(cover), alt: 'A cover'},
      body: [{_type: 'image', _key: 'i1', ...ref(inline), alt: 'Inline'}],
    }
    await lake.owner.create({_id: 'drafts.pictures', ...post})
    await lake.imagesIdle()
    const wanted = [
      ...siteVariantUrls(builder, cover, 'cover'),
      ...siteVariantUrls(builder, inline, 'body'),
    ]
    const share = wanted.find((url) => url.includes('w=1200&h=630'))
    expect(share).toBeDefined()
    expect(await answers([wanted[0]])).toEqual(['200 miss image/avif'])

    await lake.owner.create({_id: 'pictures', ...post})
    await lake.imagesIdle()
    const got = await answers(wanted.slice(1))
    expect(got.every((answer) => answer.startsWith('200 hit '))).toBe(true)
    expect(await answers([share!])).toEqual(['200 hit image/jpeg'])

    // After a restart the memory is empty; the site's disk tier still has every one of them,
    // the one a reader had asked for before publishing (a visitor's variant then) moved into it.
    const cached = readdirSync(join(dataDir, 'cache', 'site-images')).length
    expect(cached).toBeGreaterThanOrEqual(wanted.length)
    await lake.stop()
    lake = await startLakeUnderTest({dataDir})
    expect(new Set((await answers(wanted.slice(1))).map((answer) => answer.split(' ')[1]))).toEqual(
      new Set(['disk']),
    )
  })
})
