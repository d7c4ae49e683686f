import {mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {serve, type ServerType} from '@hono/node-server'
import {Hono} from 'hono'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {localImageBuilder, siteVariantUrls} from '../../../shared/imageUrl.ts'
import {Lake} from '../lake.ts'
import {AssetStore} from './assetStore.ts'
import {registerImages, type ImageVariants} from './images.ts'

const readers = 'image/avif,image/webp,*/*'
const visitorDiskBytes = 8 * 1024 * 1024

/** Bytes of the files in a folder. */
const folderBytes = (dir: string) =>
  readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0)

describe("the site's own variants are a cache tier visitors cannot evict (security review 3, M2)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'images-tiers-'))
  let server: ServerType
  let base: string
  let images: ImageVariants
  let path: string
  let siteUrls: string[]

  beforeAll(async () => {
    const lake = new Lake({dataDir, projectId: 'scriptorium', dataset: 'production', token: 'o'})
    const store = new AssetStore(dataDir)
    // A 1600 × 1000 noise photo: its full-size PNG variants are some 4 MB each.
    const photo = await sharp({
      create: {
        width: 1600,
        height: 1000,
        channels: 3,
        background: '#567',
        noise: {type: 'gaussian', mean: 120, sigma: 40},
      },
    })
      .jpeg()
      .toBuffer()
    const stored = await store.storeImage(photo, 'image/jpeg')
    path = `/images/scriptorium/production/${stored.fileName}`
    const app = new Hono()
    images = registerImages(app, lake, store, {dataDir, diskCacheBytes: visitorDiskBytes})
    server = serve({fetch: app.fetch, port: 0, hostname: '127.0.0.1'})
    await new Promise((resolve) => server.once('listening', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const builder = localImageBuilder({projectId: 'scriptorium', dataset: 'production'})
    const image = {asset: {_id: `image-${stored.sha1}-1600x1000-jpg`}, crop: null, hotspot: null}
    siteUrls = siteVariantUrls(builder, image, 'cover')
  })
  afterAll(async () => {
    images.close()
    await new Promise((resolve) => server.close(resolve))
    rmSync(dataDir, {recursive: true, force: true})
  })

  const xCache = async (url: string) => {
    const res = await fetch(`${base}${url}`, {headers: {accept: readers}})
    await res.arrayBuffer()
    expect(res.status).toBe(200)
    return res.headers.get('x-cache')
  }

  it('pre-rendered site variants are still cached after a flood of large distinct variants', async () => {
    for (const url of siteUrls) images.warm(url, readers)
    await images.idle()
    expect(siteUrls.length).toBeGreaterThan(5)
    // 20 distinct full-size PNGs (some 80 MB): more than the 64 MiB of memory and the visitors'
    // disk bound together, as the review's two clients of large PNGs were.
    for (let i = 0; i < 20; i++) expect(await xCache(`${path}?w=${1600 - i}&fm=png`)).toBe('miss')
    const answers = await Promise.all(siteUrls.map(xCache))
    expect(answers.filter((answer) => answer === 'miss')).toEqual([])
    expect(folderBytes(join(dataDir, 'cache', 'images'))).toBeLessThanOrEqual(visitorDiskBytes)
  }, 180_000)
})
