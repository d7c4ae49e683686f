import type {Hono} from 'hono'
import sharp from 'sharp'
import {badRequest, notFound} from '../errors.ts'
import type {Lake} from '../lake.ts'
import {imageFilePattern, mimeTypes, type AssetStore} from './assetStore.ts'
import {isTransform, parseImageParams, sharpFit, type ImageParams} from './imageParams.ts'

const outputMime = {
  jpg: 'image/jpeg',
  pjpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const

/** Small in-memory cache of resized variants, oldest evicted first. */
class VariantCache {
  private readonly entries = new Map<string, {bytes: Buffer; type: string}>()
  private bytes = 0
  private readonly maxBytes = 64 * 1024 * 1024

  get(key: string) {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(key: string, value: {bytes: Buffer; type: string}) {
    this.entries.set(key, value)
    this.bytes += value.bytes.length
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldKey)
      this.bytes -= old.bytes.length
    }
  }
}

async function transform(source: Buffer, params: ImageParams, sourceExt: string) {
  let image = sharp(source, {animated: false}).rotate()
  if (params.rect) image = image.extract(params.rect)
  if (params.width || params.height) {
    const {fit, withoutEnlargement} = sharpFit[params.fit]
    image = image.resize({
      width: params.width,
      height: params.height,
      fit,
      withoutEnlargement,
      background: {r: 255, g: 255, b: 255, alpha: 0},
    })
  }
  const format =
    params.format ?? (sourceExt === 'jpg' ? 'jpg' : sourceExt === 'webp' ? 'webp' : 'png')
  if (format === 'jpg' || format === 'pjpg')
    image = image
      .flatten({background: '#ffffff'})
      .jpeg({quality: params.quality, progressive: format === 'pjpg'})
  else if (format === 'webp') image = image.webp({quality: params.quality})
  else image = image.png()
  return {bytes: await image.toBuffer(), type: outputMime[format]}
}

/**
 * GET /images/{projectId}/{dataset}/{sha1}-{w}x{h}.{ext}: uploaded images as Sanity's CDN serves
 * them, resized with `w`, `h`, `fit`, `fm`, `q` (sharp). Files are immutable by name.
 */
export function registerImages(app: Hono, lake: Lake, store: AssetStore): void {
  const cache = new VariantCache()
  app.get('/images/:projectId/:dataset/:file', async (c) => {
    const {projectId, dataset, file} = c.req.param()
    const match = imageFilePattern.exec(file)
    if (projectId !== lake.projectId || dataset !== lake.dataset || !match)
      throw notFound('Image not found')
    const source = store.read(file)
    if (!source) throw notFound('Image not found')
    let params: ImageParams
    try {
      params = parseImageParams(c.req.query(), c.req.header('accept') ?? '')
    } catch (error) {
      throw badRequest(`Bad image parameter: ${(error as Error).message}`)
    }
    const headers = {
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      // An SVG opened directly must not run scripts on our origin.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      vary: 'Accept',
    }
    if (!isTransform(params))
      return new Response(new Uint8Array(source), {
        headers: {...headers, 'content-type': mimeTypes[match[4]]},
      })
    const key = `${file}?${JSON.stringify(params)}`
    let variant = cache.get(key)
    if (!variant) {
      try {
        variant = await transform(source, params, match[4])
      } catch (error) {
        throw badRequest(`Cannot transform this image: ${(error as Error).message}`)
      }
      cache.set(key, variant)
    }
    return new Response(new Uint8Array(variant.bytes), {
      headers: {...headers, 'content-type': variant.type},
    })
  })
}
