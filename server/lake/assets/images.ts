import {openAsBlob} from 'node:fs'
import type {Context, Hono} from 'hono'
import sharp from 'sharp'
import {clientOf} from '../../http/clientAddress.ts'
import {refusals, safe} from '../../http/log.ts'
import {badRequest, LakeError, notFound} from '../errors.ts'
import type {Lake} from '../lake.ts'
import {imageFilePattern, mimeTypes, type AssetStore} from './assetStore.ts'
import {
  boundedParams,
  isTransform,
  parseImageParams,
  sharpFit,
  variantKey,
  type ImageFormat,
  type ImageParams,
} from './imageParams.ts'
import {QueueFullError, TransformQueue, transformRetryAfterSeconds} from './transformQueue.ts'
import {VariantCache, type Variant} from './variantCache.ts'
import {messageOf} from '../../util/messageOf.ts'

// One transform at a time (transformQueue.ts) must also mean one core: libvips otherwise runs
// a thread per core, taking the second core from pages and queries. Its operation cache is kept
// small: variants are cached by us (variantCache.ts), in bytes we count.
sharp.concurrency(1)
sharp.cache({memory: 16, files: 0, items: 20})

const outputMime = {
  jpg: 'image/jpeg',
  pjpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const

/**
 * A backstop for one transform (sharp's own timeout): the output caps keep honest ones far
 * under a second, so anything near this is a pathological source.
 */
const transformTimeoutSeconds = 10

/** Source sizes remembered (read from the file header once per file); cleared when full. */
const maxKnownSizes = 1000

/** The size a transform starts from: EXIF orientations 5–8 swap width and height (`rotate()`). */
async function orientedSize(path: string): Promise<{width: number; height: number}> {
  const meta = await sharp(path).metadata()
  const width = meta.width ?? 1
  const height = meta.height ?? 1
  return (meta.orientation ?? 1) >= 5 ? {width: height, height: width} : {width, height}
}

/** Sharp reads the source file itself, in its thread pool: no 25 MB buffer per request. */
async function transform(path: string, params: ImageParams, format: ImageFormat) {
  let image = sharp(path, {animated: false}).timeout({seconds: transformTimeoutSeconds}).rotate()
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
  if (format === 'jpg' || format === 'pjpg')
    image = image
      .flatten({background: '#ffffff'})
      .jpeg({quality: params.quality, progressive: format === 'pjpg'})
  else if (format === 'webp') image = image.webp({quality: params.quality})
  else image = image.png()
  return {bytes: await image.toBuffer(), type: outputMime[format]}
}

/** 429 for a client over its share of the queue, 503 when the queue is full: both with Retry-After. */
function queueRefusal(c: Context, error: QueueFullError): LakeError {
  const status = error.scope === 'client' ? 429 : 503
  const client = clientOf(c).key
  refusals.refuse(
    client,
    `image-${error.scope}`,
    `[images] ${status} GET ${safe(c.req.path)} from ${client}: ${error.message}`,
  )
  c.header('retry-after', String(transformRetryAfterSeconds))
  c.header('cache-control', 'no-store')
  const type = status === 429 ? 'tooManyRequests' : 'serviceUnavailable'
  return new LakeError(status, type, `${error.message}; retry in ${transformRetryAfterSeconds} s`)
}

/**
 * GET /images/{projectId}/{dataset}/{sha1}-{w}x{h}.{ext}: uploaded images as Sanity's CDN serves
 * them, resized with `w`, `h`, `fit`, `fm`, `q`, `dpr`, `rect` (sharp). Files are immutable by
 * name. Transforms are bounded (imageParams.ts: output size; transformQueue.ts: CPU;
 * variantCache.ts: memory), and the same transform asked for again while it runs shares it.
 */
export function registerImages(app: Hono, lake: Lake, store: AssetStore): void {
  const cache = new VariantCache()
  const queue = new TransformQueue()
  const inFlight = new Map<string, Promise<Variant>>()
  const sizes = new Map<string, {width: number; height: number}>()

  async function sourceSize(file: string, path: string) {
    const known = sizes.get(file)
    if (known) return known
    const size = await orientedSize(path)
    if (sizes.size >= maxKnownSizes) sizes.clear()
    sizes.set(file, size)
    return size
  }

  app.get('/images/:projectId/:dataset/:file', async (c) => {
    const {projectId, dataset, file} = c.req.param()
    const match = imageFilePattern.exec(file)
    if (projectId !== lake.projectId || dataset !== lake.dataset || !match)
      throw notFound('Image not found')
    const source = await store.locate(file)
    if (!source) throw notFound('Image not found')
    const sourceExt = match[4]
    let params: ImageParams
    try {
      params = parseImageParams(c.req.query(), c.req.header('accept') ?? '')
    } catch (error) {
      throw badRequest(`Bad image parameter: ${messageOf(error)}`)
    }
    const headers = {
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      // An SVG opened directly must not run scripts on our origin.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      vary: 'Accept',
    }
    if (!isTransform(params)) {
      // A file-backed Blob, streamed from disk: an original (up to 25 MB) is never held whole.
      return new Response(await openAsBlob(source.path), {
        headers: {
          ...headers,
          'content-type': mimeTypes[sourceExt],
          'content-length': String(source.size),
        },
      })
    }
    let bounded: ImageParams
    try {
      bounded = boundedParams(params, await sourceSize(file, source.path))
    } catch (error) {
      throw badRequest(`Bad image parameter: ${messageOf(error)}`)
    }
    const format =
      bounded.format ?? (sourceExt === 'jpg' ? 'jpg' : sourceExt === 'webp' ? 'webp' : 'png')
    const key = variantKey(file, bounded, format)
    let variant = cache.get(key)
    if (!variant) {
      let pending = inFlight.get(key)
      if (!pending) {
        pending = queue.run(clientOf(c).key, () => transform(source.path, bounded, format))
        inFlight.set(key, pending)
        void pending.then(
          (done) => cache.set(key, done),
          () => undefined,
        )
        void pending.finally(() => inFlight.delete(key)).catch(() => undefined)
      }
      try {
        variant = await pending
      } catch (error) {
        if (error instanceof QueueFullError) throw queueRefusal(c, error)
        // sharp's messages can name the file's path: the log gets it, the client does not.
        console.warn(`[images] cannot transform ${safe(file)}: ${String(error)}`)
        throw badRequest('Cannot transform this image with these parameters')
      }
    }
    return new Response(new Uint8Array(variant.bytes), {
      headers: {...headers, 'content-type': variant.type},
    })
  })
}
