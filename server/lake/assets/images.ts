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
  type CropMode,
  type ImageFormat,
  type ImageParams,
} from './imageParams.ts'
import {ColdTransformBudget} from './coldBudget.ts'
import {VariantDiskCache} from './variantDiskCache.ts'
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

/** Where `fit=crop` takes its region from, for Sanity's `crop` modes (focalpoint is a rect). */
const cropPositions: Record<CropMode, string | number> = {
  top: 'top',
  bottom: 'bottom',
  left: 'left',
  right: 'right',
  center: 'centre',
  focalpoint: 'centre',
  entropy: sharp.strategy.entropy,
}

/**
 * Sharp reads the source file itself, in its thread pool: no 25 MB buffer per request. The
 * source is turned upright first (EXIF orientation), so `rect` and every size are in the same
 * upright space as the asset's recorded dimensions (assetStore.ts).
 */
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
      position: cropPositions[params.crop ?? 'center'],
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

/** 429 for a client over its budget of cold transforms per minute (coldBudget.ts). */
function budgetRefusal(c: Context, retryAfter: number): LakeError {
  c.header('retry-after', String(retryAfter))
  c.header('cache-control', 'no-store')
  return new LakeError(
    429,
    'tooManyRequests',
    `Too many new image variants from this client; retry in ${retryAfter} s`,
  )
}

export interface ImageRouteOptions {
  /** Where the disk cache of variants lives (DATA_DIR/cache/images). */
  dataDir: string
  diskCacheBytes?: number
  coldTransformsPerMinute?: number
}

/**
 * GET /images/{projectId}/{dataset}/{sha1}-{w}x{h}.{ext}[/{vanity name}]: uploaded images as
 * Sanity's CDN serves them, resized with `w`, `h`, `fit`, `fm`, `q`, `dpr`, `rect`, `crop`,
 * `fp-x`/`fp-y` and `auto=format` (sharp). Files are immutable by name; a vanity file name after
 * it changes nothing. SVGs are served as stored, never transformed. Transforms are bounded
 * (imageParams.ts: output size; transformQueue.ts: CPU; coldBudget.ts: new variants per client;
 * variantCache.ts: memory; variantDiskCache.ts: disk), and the same transform asked for again
 * while it runs shares it.
 */
export function registerImages(
  app: Hono,
  lake: Lake,
  store: AssetStore,
  options: ImageRouteOptions,
): void {
  const cache = new VariantCache()
  const disk = new VariantDiskCache(options.dataDir, options.diskCacheBytes)
  const queue = new TransformQueue()
  const budget = new ColdTransformBudget(options.coldTransformsPerMinute)
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

  /** The variant from memory, disk, a transform already running, or a new one (budgeted). */
  async function variantFor(
    c: Context,
    key: string,
    path: string,
    params: ImageParams,
    format: ImageFormat,
  ): Promise<Variant> {
    const hot = cache.get(key)
    if (hot) return hot
    let pending = inFlight.get(key)
    if (!pending) {
      const stored = await disk.get(key, outputMime[format])
      if (stored) {
        cache.set(key, stored)
        return stored
      }
      pending = inFlight.get(key)
    }
    if (!pending) {
      const client = clientOf(c).key
      const wait = budget.take(client)
      if (wait > 0) throw budgetRefusal(c, wait)
      // Kept in memory and on disk before anyone is answered: a variant that was served is
      // one a restart finds (disk.set never throws; a failed write only costs the cache).
      pending = queue.run(client, async () => {
        const done = await transform(path, params, format)
        cache.set(key, done)
        await disk.set(key, done)
        return done
      })
      inFlight.set(key, pending)
      void pending.finally(() => inFlight.delete(key)).catch(() => undefined)
    }
    try {
      return await pending
    } catch (error) {
      if (error instanceof QueueFullError) throw queueRefusal(c, error)
      // sharp's messages can name the file's path: the log gets it, the client does not.
      console.warn(`[images] cannot transform ${safe(c.req.path)}: ${String(error)}`)
      throw badRequest('Cannot transform this image with these parameters')
    }
  }

  const serve = async (c: Context) => {
    const {projectId, dataset, file} = c.req.param()
    const match = imageFilePattern.exec(file ?? '')
    if (projectId !== lake.projectId || dataset !== lake.dataset || !match)
      throw notFound('Image not found')
    const source = await store.locate(match[0])
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
    // An SVG is never transformed (as on Sanity's CDN): rasterising one is librsvg's work on
    // whatever the file says, for no reader of this site.
    if (!isTransform(params) || sourceExt === 'svg') {
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
      bounded = boundedParams(params, await sourceSize(match[0], source.path))
    } catch (error) {
      throw badRequest(`Bad image parameter: ${messageOf(error)}`)
    }
    const format =
      bounded.format ?? (sourceExt === 'jpg' ? 'jpg' : sourceExt === 'webp' ? 'webp' : 'png')
    const key = variantKey(match[0], bounded, format)
    const variant = await variantFor(c, key, source.path, bounded, format)
    return new Response(new Uint8Array(variant.bytes), {
      headers: {...headers, 'content-type': variant.type},
    })
  }

  app.get('/images/:projectId/:dataset/:file', serve)
  // The vanity file name @sanity/image-url appends (`…/abc-400x300.jpg/my-photo.jpg`).
  app.get('/images/:projectId/:dataset/:file/:vanity', serve)
}
