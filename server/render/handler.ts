import {join} from 'node:path'
import {sentParam} from '../../shared/constants.ts'
import {searchPath} from '../../shared/canonicalPaths.ts'
import type {ContentQuery, Flash, SiteConfig} from '../../web/entry.server.tsx'
import {ClientAssets} from './assets.ts'
import {loadSiteBundle, type SiteBundle} from './bundle.ts'
import {RenderCache} from './cache.ts'
import {RenderedPage} from './page.ts'
import {isOwnAddress, pageAddress} from './pageAddress.ts'
import {decodablePath} from './decodablePath.ts'
import {failureKind, failures, safe, withStack} from '../http/log.ts'
import type {ContentEvents} from '../live/contentEvents.ts'
import {storeUnavailable} from './unavailable.ts'
import {pageContentSecurityPolicy, permissionsPolicy} from '../http/securityHeaders.ts'

/**
 * Variants of a page's address and error pages, kept apart from the real pages (500 by default,
 * server/render/cache.ts) so that endless made-up addresses evict only each other.
 */
const maxOtherPages = 64

export interface SiteHandlerOptions {
  /** The build output: client/ (assets + manifest) and server/ (renderer). */
  distDir: string
  /** The build before it (server/build/served.ts): its hashed assets are served too. */
  previousDistDir?: string
  /** The site's config, read per request (SITE_URL's origin is known only after listen). */
  site(): SiteConfig
  /** Where the server-side content client reaches the lake (local mode). */
  contentOrigin(): string
  /** Headers the server-side content client sends (the lake's internal credential). */
  contentHeaders?(): Record<string, string>
  /** This process's own lake, read in process (server/lake/api/siteQuery.ts); else over HTTP. */
  contentQuery?: ContentQuery
  /**
   * The content store's live events (server/live/contentEvents.ts): pages are cached while they
   * flow and dropped by the sync tags they name. Without them nothing is cached.
   */
  events?: ContentEvents
  /**
   * The contact relay's one-time markers (server/http/sentMarkers.ts; a site process takes
   * them from the content process, server/forward/remoteSentMarkers.ts): a page asked for with
   * a marker it can take shows the thank-you toast, once.
   */
  sentMarkers?: {take(token: string): boolean | Promise<boolean>}
}

/** A request in preview mode: the credential its drafts are read with (server/preview/). */
export interface PreviewRequest {
  headers: Record<string, string>
}

/**
 * Whether a request that presents a preview cookie is in preview: asked only for a page, after
 * the assets (a site process asks its content process each time: server/forward/remotePreview.ts).
 */
export type PreviewLookup = () => PreviewRequest | undefined | Promise<PreviewRequest | undefined>

export interface SiteHandler {
  handle(request: Request, preview?: PreviewLookup): Promise<Response>
  /** How many pages the render cache holds: real pages, and variants or error pages. */
  cached(): {pages: number; others: number; stale: number}
  /** Pages dropped by live messages so far (the bench divides it by the messages seen). */
  readonly dropped: number
  /** Stops following the live events. */
  close(): void
}

/**
 * `X-Cache` on every page: `HIT` from the render cache, `MISS` rendered now, `STALE` a copy kept
 * while the content store cannot be reached or the live events are reconnecting.
 */
type CacheStatus = 'HIT' | 'MISS' | 'STALE'

/** A render, and whether a query could not reach the content store. */
interface Rendered {
  page: RenderedPage
  unreachable: boolean
}

/** A page that could not be rendered (logged by the caller): kept by no cache. */
const renderFailed = () =>
  new Response('Internal server error', {
    status: 500,
    headers: {'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store'},
  })

/** A render that failed, logged once per kind per minute (server/http/log.ts's `failures`). */
function logRenderFailure(what: string, error: unknown): void {
  failures.refuse(
    '*',
    `render ${failureKind(error)}`,
    `[site] rendering ${what} failed: ${withStack(error)}`,
  )
}

const notBuilt = 'The site is not built: run `npm run build`.'

/**
 * The public site's GET handler: a file of the browser build, else a page rendered on the server
 * — from the render cache when the content has not changed since it was rendered.
 */
export function createSiteHandler(options: SiteHandlerOptions): SiteHandler {
  const assets = new ClientAssets(
    join(options.distDir, 'client'),
    options.previousDistDir && join(options.previousDistDir, 'client'),
  )
  const cache = new RenderCache<RenderedPage>()
  const others = new RenderCache<RenderedPage>(maxOtherPages)
  /** Copies of the real pages from before the live events failed, served only if renders fail. */
  let stale = new Map<string, RenderedPage>()
  const inflight = new Map<string, Promise<Rendered | Response>>()
  let bundle: Promise<SiteBundle | undefined> | undefined
  let dropped = 0
  const {events} = options
  const unsubscribe = [
    events?.onChange((change) => {
      if (change.kind === 'tags') {
        dropped += cache.drop(change.tags)
        others.drop(change.tags)
        return
      }
      // Position lost. While the store is away the pages may still be shown, marked stale, when
      // a fresh render fails; once the events flow again they are never shown.
      if (!events.live) for (const [key, page] of cache.values()) stale.set(key, page)
      cache.clear()
      others.clear()
    }),
    events?.onState((state) => {
      if (state === 'live') stale = new Map()
    }),
  ]

  async function renderPage(
    url: URL,
    key: string,
    flash?: Flash,
    preview?: PreviewRequest,
  ): Promise<Rendered | Response> {
    bundle ??= loadSiteBundle(options.distDir)
    const built = await bundle
    if (!built) {
      bundle = undefined
      return new Response(notBuilt, {
        status: 503,
        headers: {'content-type': 'text/plain; charset=utf-8'},
      })
    }
    const generation = cache.generation
    const otherGeneration = others.generation
    // Nothing is stored unless the events flowed from before this render to after it.
    const liveAtStart = events?.live === true
    const site = options.site()
    // Only the address reaches the renderer: pages are the same for every anonymous visitor.
    const result = await built.renderer.render(new Request(url), {
      site,
      contentOrigin: options.contentOrigin(),
      contentHeaders: options.contentHeaders?.(),
      ...(options.contentQuery ? {contentQuery: options.contentQuery} : {}),
      assets: built.assets,
      ...(flash ? {flash} : {}),
      ...(preview ? {preview} : {}),
      ...(events?.lastEventId === undefined ? {} : {lastLiveEventId: events.lastEventId}),
    })
    if (result instanceof Response) return result
    const search = url.pathname === searchPath
    const page = new RenderedPage(
      result.status,
      result.html,
      {
        'content-security-policy': pageContentSecurityPolicy(site, built.scriptHashes),
        'permissions-policy': permissionsPolicy,
        // A one-time page: no cache, and no copy for Back to show again.
        ...(flash ? {'cache-control': 'no-store'} : {}),
        // The owner's drafts: kept by no cache, shown by no search engine.
        ...(preview ? {'cache-control': 'private, no-store', 'x-robots-tag': 'noindex'} : {}),
      },
      // A search's page is a reader's own words, seldom asked for twice: compressed in ~0.1 ms
      // (brotli 1, a fifth larger) instead of ~0.5 (docs/search.md, "Speed").
      search ? 1 : undefined,
    )
    if (liveAtStart && events?.live === true && result.cacheable && !preview) {
      // A loader may name the page's own address (the blog's count clamped to the tab's last page).
      const own = result.ownAddress === undefined || result.ownAddress === url.pathname + url.search
      // A search's page is a reader's own words: kept with the variants, so that endless
      // distinct searches evict only each other, never the site's pages (and the process holds
      // 64 of them, not 500).
      if (result.status === 200 && own && !search && isOwnAddress(result.html, url))
        cache.set(key, page, result.syncTags, generation)
      else others.set(key, page, result.syncTags, otherGeneration)
    }
    return {page, unreachable: result.contentUnreachable}
  }

  const respond = (
    page: RenderedPage,
    status: CacheStatus,
    request: Request,
    validate = true,
  ): Response => {
    const response = page.respond(
      request.headers.get('accept-encoding') ?? undefined,
      validate ? (request.headers.get('if-none-match') ?? undefined) : undefined,
      request.method === 'HEAD',
    )
    response.headers.set('x-cache', status)
    return response
  }

  return {
    async handle(request, lookup) {
      const requested = decodablePath(new URL(request.url))
      const acceptEncoding = request.headers.get('accept-encoding') ?? undefined
      const file = lookup ? await assets.respond(requested.pathname, acceptEncoding) : undefined
      if (file) return file
      // A cookie whose session has ended is a visitor's request: the public page, cached.
      const preview = await lookup?.()
      if (preview) {
        // Every parameter kept (the Studio's own included), no cache, no shared render.
        try {
          const rendered = await renderPage(requested, '', undefined, preview)
          return rendered instanceof Response
            ? rendered
            : respond(rendered.page, 'MISS', request, false)
        } catch (error) {
          logRenderFailure(`${safe(requested.pathname)} in preview`, error)
          return renderFailed()
        }
      }
      const url = pageAddress(requested)
      // Page addresses have no file extension: look in the render cache before the disk.
      const key = `${options.site().siteUrl}${url.pathname}${url.search}`
      // The relay's marker: taken (or refused) here, and never part of the page's address.
      const marker = requested.searchParams.get(sentParam)
      if (marker !== null && (await options.sentMarkers?.take(marker))) {
        const fresh = await renderPage(url, key, 'contact-sent').catch((error: unknown) => {
          logRenderFailure(`${safe(url.pathname)} with the toast`, error)
          return undefined
        })
        if (fresh instanceof Response) return fresh
        if (fresh && !fresh.unreachable) return respond(fresh.page, 'MISS', request, false)
      }
      // Live: the cache is fresh. Reconnecting: it is as fresh as the last event seen. Either
      // way, not before a commit of this process's own lake has come through the stream.
      const upToDate = events?.upToDate()
      const usable = upToDate === undefined || upToDate === true || (await upToDate)
      const cached =
        usable && (events?.live === true || events?.state === 'reconnecting')
          ? (cache.get(key) ?? others.get(key))
          : undefined
      if (cached) return respond(cached, events?.live === true ? 'HIT' : 'STALE', request)
      const asset = await assets.respond(url.pathname, acceptEncoding)
      if (asset) return asset
      // Concurrent misses for one address share one render, unless the content changed since
      // it started (then it is stale: render again).
      const flightKey = `${cache.generation}|${key}`
      let pending = inflight.get(flightKey)
      if (!pending) {
        pending = renderPage(url, key).finally(() => inflight.delete(flightKey))
        inflight.set(flightKey, pending)
      }
      let rendered: Rendered | Response
      try {
        rendered = await pending
      } catch (error) {
        logRenderFailure(safe(url.pathname + url.search), error)
        return renderFailed()
      }
      if (rendered instanceof Response) return rendered.clone()
      if (!rendered.unreachable) return respond(rendered.page, 'MISS', request)
      // The content store did not answer: the copy from before it went away, else a 503.
      const copy = events?.live === true ? undefined : stale.get(key)
      if (copy) return respond(copy, 'STALE', request)
      return storeUnavailable(request.method === 'HEAD')
    },
    cached: () => ({pages: cache.size, others: others.size, stale: stale.size}),
    get dropped() {
      return dropped
    },
    close: () => {
      for (const stop of unsubscribe) stop?.()
    },
  }
}
