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
  cheapFormat,
  isTransform,
  outputSizeOf,
  parseImageParams,
  variantKey,
  type ImageFormat,
  type ImageParams,
} from './imageParams.ts'
import {outputMime, transform} from './transform.ts'
import {ColdTransformBudget} from './coldBudget.ts'
import {defaultTierBounds, VariantTiers, type Tier} from './variantTiers.ts'
import {
  maxBackgroundTransforms,
  QueueFullError,
  TransformQueue,
  transformRetryAfterSeconds,
} from './transformQueue.ts'
import type {Variant} from './variantCache.ts'
import {messageOf} from '../../util/messageOf.ts'

/** Source sizes remembered (read from the file header once per file); cleared when full. */
const maxKnownSizes = 1000
/**
 * Keys of the site's own variants remembered (those pre-rendering was asked for), so that one
 * rendered on a reader's request instead, or again after eviction, goes to the site's tier too;
 * the oldest are forgotten first. A few hundred bytes each.
 */
const maxSiteKeys = 20_000

/** The size a transform starts from: EXIF orientations 5–8 swap width and height (`rotate()`). */
async function orientedSize(path: string): Promise<{width: number; height: number}> {
  const meta = await sharp(path).metadata()
  const width = meta.width ?? 1
  const height = meta.height ?? 1
  return (meta.orientation ?? 1) >= 5 ? {width: height, height: width} : {width, height}
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
  /** Where the disk caches of variants live (DATA_DIR/cache/images and cache/site-images). */
  dataDir: string
  /** Bytes of the visitors' tier on disk (variantTiers.ts). */
  diskCacheBytes?: number
  /** Output pixels of cold transforms per client per minute (coldBudget.ts). */
  coldPixelsPerMinute?: number
}

/** Where a variant came from: `X-Cache` on the response (memory, disk, or transformed now). */
type Source = 'hit' | 'disk' | 'miss'

/** What the lake's other parts may ask of the image route: pre-rendering (prerender.ts). */
export interface ImageVariants {
  /**
   * Renders the variant `url` (`/images/…?…`) names for a browser sending `accept`, in the
   * background (transformQueue.ts `runInBackground`), unless it is cached or being rendered.
   * Never throws: a variant it could not render is one rendered on first request.
   */
  warm(url: string, accept: string): void
  /** Resolves once no background render is pending (tests, the bench). */
  idle(): Promise<void>
  /** Starts no more background renders (the server is stopping); one running finishes. */
  close(): void
}

/** The asset file an `/images/{projectId}/{dataset}/{file}[/{vanity}]` path names, if ours. */
function fileOf(lake: Lake, projectId?: string, dataset?: string, file?: string) {
  const match = imageFilePattern.exec(file ?? '')
  if (projectId !== lake.projectId || dataset !== lake.dataset || !match) return undefined
  return {name: match[0], ext: match[4]}
}

/**
 * GET /images/{projectId}/{dataset}/{sha1}-{w}x{h}.{ext}[/{vanity name}]: uploaded images as
 * Sanity's CDN serves them, resized with `w`, `h`, `fit`, `fm`, `q`, `dpr`, `rect`, `crop`,
 * `fp-x`/`fp-y` and `auto=format` (sharp). Files are immutable by name; a vanity file name after
 * it changes nothing. SVGs are served as stored, never transformed. Transforms are bounded
 * (imageParams.ts: output size; transformQueue.ts: CPU; coldBudget.ts: new variants per client;
 * variantCache.ts: memory; variantDiskCache.ts: disk), and the same transform asked for again
 * while it runs shares it. Returns what pre-rendering needs (`ImageVariants`).
 */
export function registerImages(
  app: Hono,
  lake: Lake,
  store: AssetStore,
  options: ImageRouteOptions,
): ImageVariants {
  const tiers = new VariantTiers(options.dataDir, {
    ...defaultTierBounds,
    disk: {
      ...defaultTierBounds.disk,
      visitor: options.diskCacheBytes ?? defaultTierBounds.disk.visitor,
    },
  })
  const siteKeys = new Set<string>()
  const tierOf = (key: string): Tier => (siteKeys.has(key) ? 'site' : 'visitor')
  const queue = new TransformQueue()
  const budget = new ColdTransformBudget(options.coldPixelsPerMinute)
  const inFlight = new Map<string, Promise<Variant>>()
  const sizes = new Map<string, {width: number; height: number}>()
  let background = 0
  let closed = false
  /** Since the background work last began: how many renders were asked for, and when. */
  let batch = {asked: 0, start: 0}
  let idleWaiters: Array<() => void> = []

  async function sourceSize(file: string, path: string) {
    const known = sizes.get(file)
    if (known) return known
    const size = await orientedSize(path)
    if (sizes.size >= maxKnownSizes) sizes.clear()
    sizes.set(file, size)
    return size
  }

  /** A transform, kept in its tier's memory and disk before anyone is answered. */
  async function render(
    key: string,
    path: string,
    params: ImageParams,
    format: ImageFormat,
    file: string,
  ): Promise<Variant> {
    // disk.set never throws; a failed write only costs the cache.
    const done = await transform(path, params, format, await sourceSize(file, path))
    await tiers.keep(key, done, tierOf(key))
    return done
  }

  /** The variant from memory, disk, a transform already running, or a new one (budgeted). */
  async function variantFor(
    c: Context,
    key: string,
    path: string,
    params: ImageParams,
    format: ImageFormat,
    file: string,
    pixels: number,
  ): Promise<{variant: Variant; source: Source}> {
    const hot = tiers.hot(key)
    if (hot) return {variant: hot, source: 'hit'}
    let pending = inFlight.get(key)
    if (!pending) {
      const stored = await tiers.stored(key, outputMime[format])
      if (stored) return {variant: stored, source: 'disk'}
      pending = inFlight.get(key)
    }
    if (!pending) {
      const client = clientOf(c).key
      const wait = budget.take(client, pixels)
      if (wait > 0) throw budgetRefusal(c, wait)
      // A variant that was served is one a restart finds.
      pending = queue.run(client, () => render(key, path, params, format, file))
      inFlight.set(key, pending)
      void pending.finally(() => inFlight.delete(key)).catch(() => undefined)
    }
    try {
      return {variant: await pending, source: 'miss'}
    } catch (error) {
      if (error instanceof QueueFullError) throw queueRefusal(c, error)
      // sharp's messages can name the file's path: the log gets it, the client does not.
      console.warn(`[images] cannot transform ${safe(c.req.path)}: ${String(error)}`)
      throw badRequest('Cannot transform this image with these parameters')
    }
  }

  const serve = async (c: Context) => {
    const {projectId, dataset, file} = c.req.param()
    const asset = fileOf(lake, projectId, dataset, file)
    if (!asset) throw notFound('Image not found')
    const source = await store.locate(asset.name)
    if (!source) throw notFound('Image not found')
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
    if (!isTransform(params) || asset.ext === 'svg') {
      // A file-backed Blob, streamed from disk: an original (up to 25 MB) is never held whole.
      return new Response(await openAsBlob(source.path), {
        headers: {
          ...headers,
          'content-type': mimeTypes[asset.ext],
          'content-length': String(source.size),
        },
      })
    }
    let bounded: ImageParams
    let size: {width: number; height: number}
    try {
      size = await sourceSize(asset.name, source.path)
      bounded = boundedParams(params, size)
    } catch (error) {
      throw badRequest(`Bad image parameter: ${messageOf(error)}`)
    }
    const format = cheapFormat(bounded, size) ?? sourceFormat(asset.ext)
    const key = variantKey(asset.name, bounded, format)
    const out = outputSizeOf(bounded, size)
    const {variant, source: from} = await variantFor(
      c,
      key,
      source.path,
      bounded,
      format,
      asset.name,
      Math.round(out.width) * Math.round(out.height),
    )
    return new Response(new Uint8Array(variant.bytes), {
      headers: {...headers, 'content-type': variant.type, 'x-cache': from},
    })
  }

  app.get('/images/:projectId/:dataset/:file', serve)
  // The vanity file name @sanity/image-url appends (`…/abc-400x300.jpg/my-photo.jpg`).
  app.get('/images/:projectId/:dataset/:file/:vanity', serve)

  /** Renders one variant in the background, unless it is cached, being rendered, or dropped. */
  async function warmOne(url: string, accept: string): Promise<void> {
    const address = new URL(url, 'http://lake.invalid')
    const [, , projectId, dataset, file] = address.pathname.split('/')
    const asset = fileOf(lake, projectId, dataset, file)
    if (!asset || asset.ext === 'svg') return
    const source = await store.locate(asset.name)
    if (!source) return
    const params = parseImageParams(Object.fromEntries(address.searchParams), accept)
    if (!isTransform(params)) return
    const size = await sourceSize(asset.name, source.path)
    const bounded = boundedParams(params, size)
    const format = cheapFormat(bounded, size) ?? sourceFormat(asset.ext)
    const key = variantKey(asset.name, bounded, format)
    const type = outputMime[format]
    siteKeys.delete(key)
    siteKeys.add(key)
    for (const oldest of siteKeys) {
      if (siteKeys.size <= maxSiteKeys) break
      siteKeys.delete(oldest)
    }
    // Rendered for a reader already: moved into the site's tier, where visitors cannot evict it.
    if (!tiers.has(key, type, 'site') && tiers.has(key, type)) {
      const variant = tiers.hot(key) ?? (await tiers.stored(key, type))
      if (variant) await tiers.keep(key, variant, 'site')
    }
    const cached = () => tiers.has(key, type) || inFlight.has(key)
    if (cached()) return
    await queue.runInBackground(async () => {
      // Looked at again when its turn comes: a reader may have asked for it meanwhile. Only a
      // render that has started is shared with readers (inFlight): one still waiting might be
      // dropped, and a reader must never wait on that.
      if (closed || cached()) return
      const pending = render(key, source.path, bounded, format, asset.name)
      inFlight.set(key, pending)
      try {
        await pending
      } finally {
        inFlight.delete(key)
      }
    })
  }

  return {
    warm(url, accept) {
      // Past the background queue's bound nothing more would run: not even its lookups start
      // (a commit of a thousand posts with images must not read a thousand file headers at once).
      if (closed || background >= maxBackgroundTransforms) return
      if (background === 0) batch = {asked: 0, start: performance.now()}
      background++
      batch.asked++
      warmOne(url, accept)
        .catch((error: unknown) =>
          console.warn(`[images] cannot pre-render ${safe(url)}: ${messageOf(error)}`),
        )
        .finally(() => {
          background--
          if (background > 0) return
          // One line per batch (a publish, an upload): operators and the bench see it is done.
          const ms = Math.round(performance.now() - batch.start)
          console.log(
            `[images] pre-rendered ${batch.asked} variants (cached ones skipped) in ${ms} ms`,
          )
          const waiters = idleWaiters
          idleWaiters = []
          for (const resolve of waiters) resolve()
        })
    },
    idle: () =>
      background === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve)),
    close: () => {
      closed = true
    },
  }
}

/** The format of a variant that asks for none: the source's own (PNG for anything else). */
const sourceFormat = (ext: string): ImageFormat =>
  ext === 'jpg' ? 'jpg' : ext === 'webp' ? 'webp' : 'png'
