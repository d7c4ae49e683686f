import {openAsBlob} from 'node:fs'
import type {Context, Hono} from 'hono'
import {clientOf} from '../../http/clientAddress.ts'
import {safe} from '../../http/log.ts'
import {messageOf} from '../../util/messageOf.ts'
import {badRequest, notFound} from '../errors.ts'
import type {Lake} from '../lake.ts'
import {mimeTypes, type AssetStore} from './assetStore.ts'
import {BackgroundWarming, type ImageVariants} from './backgroundWarming.ts'
import {budgetRefusal, queueRefusal} from './imageRefusals.ts'
import {isTransform, parseImageParams, type ImageParams} from './imageParams.ts'
import {QueueFullError} from './transformQueue.ts'
import {fileOf, planVariant, type VariantPlan} from './variantPlan.ts'
import {
  ColdBudgetExceeded,
  VariantRenderer,
  type VariantRendererOptions,
} from './variantRenderer.ts'

export type {ImageVariants} from './backgroundWarming.ts'
export type ImageRouteOptions = VariantRendererOptions

const headers = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  // An SVG opened directly must not run scripts on our origin.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  vary: 'Accept',
}

/** What `read` makes of a request's image parameters, or a 400 naming the bad one. */
async function checked<T>(read: () => T | Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    throw badRequest(`Bad image parameter: ${messageOf(error)}`)
  }
}

/** A reader's variant, its refusals (budget, queue) and failures answered as the lake's errors. */
async function variantForReader(c: Context, renderer: VariantRenderer, plan: VariantPlan) {
  try {
    return await renderer.forReader(clientOf(c).key, plan)
  } catch (error) {
    if (error instanceof ColdBudgetExceeded) throw budgetRefusal(c, error.retryAfterSeconds)
    if (error instanceof QueueFullError) throw queueRefusal(c, error)
    // sharp's messages can name the file's path: the log gets it, the client does not.
    console.warn(`[images] cannot transform ${safe(c.req.path)}: ${String(error)}`)
    throw badRequest('Cannot transform this image with these parameters')
  }
}

/**
 * GET /images/{projectId}/{dataset}/{sha1}-{w}x{h}.{ext}[/{vanity name}]: uploaded images as
 * Sanity's CDN serves them, resized with `w`, `h`, `fit`, `fm`, `q`, `dpr`, `rect`, `crop`,
 * `fp-x`/`fp-y` and `auto=format` (sharp). Files are immutable by name; a vanity file name after
 * it changes nothing. SVGs are served as stored, never transformed. Transforms are bounded
 * (imageParams.ts: output size; transformQueue.ts: CPU; coldBudget.ts: new variants per client;
 * variantCache.ts: memory; variantDiskCache.ts: disk), and the same transform asked for again
 * while it runs shares it (variantRenderer.ts). Returns what pre-rendering needs (`ImageVariants`).
 */
export function registerImages(
  app: Hono,
  lake: Lake,
  store: AssetStore,
  options: ImageRouteOptions,
): ImageVariants {
  const renderer = new VariantRenderer(options)

  const serve = async (c: Context) => {
    const {projectId, dataset, file} = c.req.param()
    const asset = fileOf(lake, projectId, dataset, file)
    const source = asset && (await store.locate(asset.name))
    if (!asset || !source) throw notFound('Image not found')
    const params: ImageParams = await checked(() =>
      parseImageParams(c.req.query(), c.req.header('accept') ?? ''),
    )
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
    const plan = await checked(() => planVariant(renderer.sizes, asset, source.path, params))
    const {variant, source: from} = await variantForReader(c, renderer, plan)
    return new Response(new Uint8Array(variant.bytes), {
      headers: {...headers, 'content-type': variant.type, 'x-cache': from},
    })
  }

  app.get('/images/:projectId/:dataset/:file', serve)
  // The vanity file name @sanity/image-url appends (`…/abc-400x300.jpg/my-photo.jpg`).
  app.get('/images/:projectId/:dataset/:file/:vanity', serve)

  /** Renders one variant in the background, unless it is cached, being rendered, or dropped. */
  const warming = new BackgroundWarming(async (url, accept) => {
    const address = new URL(url, 'http://lake.invalid')
    const [, , projectId, dataset, file] = address.pathname.split('/')
    const asset = fileOf(lake, projectId, dataset, file)
    if (!asset || asset.ext === 'svg') return
    const source = await store.locate(asset.name)
    if (!source) return
    const params = parseImageParams(Object.fromEntries(address.searchParams), accept)
    if (!isTransform(params)) return
    const plan = await planVariant(renderer.sizes, asset, source.path, params)
    await renderer.warm(plan, () => warming.closed)
  })
  return warming
}
