import {join} from 'node:path'
import {sentParam} from '../../shared/constants.ts'
import {ClientAssets} from './assets.ts'
import {LivePages} from './livePages.ts'
import type {PreviewLookup, PreviewRequest, SiteHandlerOptions} from './siteHandlerOptions.ts'
import type {RenderedPage} from './page.ts'
import {pageAddress} from './pageAddress.ts'
import {createPageRenderer, type Rendered, type RenderPage} from './pageRenderer.ts'
import {decodablePath} from './decodablePath.ts'
import {failureKind, failures, safe, withStack} from '../http/log.ts'
import {markSitePage} from '../http/sitePages.ts'
import {storeUnavailable} from './unavailable.ts'

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

/**
 * The public site's GET handler: a file of the browser build, else a page rendered on the server
 * — from the render cache when the content has not changed since it was rendered.
 */
export function createSiteHandler(options: SiteHandlerOptions): SiteHandler {
  return new SitePages(options)
}

/**
 * The answer for a page: encoded for the request, with its `X-Cache` status among its headers
 * from the start (setting it afterwards built a Headers object per answer), marked as a page.
 */
function respond(page: RenderedPage, status: CacheStatus, request: Request, validate = true) {
  const response = page.respond(
    request.headers.get('accept-encoding') ?? undefined,
    validate ? (request.headers.get('if-none-match') ?? undefined) : undefined,
    request.method === 'HEAD',
    {'x-cache': status},
  )
  return markSitePage(response)
}

class SitePages implements SiteHandler {
  private readonly assets: ClientAssets
  private readonly pages: LivePages
  private readonly renderPage: RenderPage
  private readonly inflight = new Map<string, Promise<Rendered | Response>>()
  private readonly options: SiteHandlerOptions

  constructor(options: SiteHandlerOptions) {
    this.options = options
    this.assets = new ClientAssets(
      join(options.distDir, 'client'),
      options.previousDistDir && join(options.previousDistDir, 'client'),
    )
    this.pages = new LivePages(options.events)
    this.renderPage = createPageRenderer(options, this.pages)
  }

  async handle(request: Request, lookup?: PreviewLookup): Promise<Response> {
    const {assets, options} = this
    const events = options.events
    const requested = decodablePath(new URL(request.url))
    const acceptEncoding = request.headers.get('accept-encoding') ?? undefined
    const file = lookup ? await assets.respond(requested.pathname, acceptEncoding) : undefined
    if (file) return file
    // A cookie whose session has ended is a visitor's request: the public page, cached.
    const preview = await lookup?.()
    if (preview) return this.previewPage(request, requested, preview)
    const url = pageAddress(requested)
    // Page addresses have no file extension: look in the render cache before the disk.
    const key = `${options.site().siteUrl}${url.pathname}${url.search}`
    // The relay's marker: taken (or refused) here, and never part of the page's address.
    // Without a query there is none (and no URLSearchParams to make for it).
    const marker = requested.search === '' ? null : requested.searchParams.get(sentParam)
    if (marker !== null && (await options.sentMarkers?.take(marker))) {
      const fresh = await this.renderPage(url, key, 'contact-sent').catch((error: unknown) => {
        logRenderFailure(`${safe(url.pathname)} with the toast`, error)
        return undefined
      })
      if (fresh instanceof Response) return fresh
      if (fresh && !fresh.unreachable) return respond(fresh.page, 'MISS', request, false)
    }
    const kept = this.cachedPage(key)
    const cached = kept instanceof Promise ? await kept : kept
    if (cached) return respond(cached, events?.live === true ? 'HIT' : 'STALE', request)
    const asset = await assets.respond(url.pathname, acceptEncoding)
    if (asset) return asset
    return this.freshPage(request, url, key)
  }

  cached(): {pages: number; others: number; stale: number} {
    return this.pages.sizes()
  }

  get dropped(): number {
    return this.pages.dropped
  }

  close(): void {
    this.pages.close()
  }

  /** The owner's drafts: every parameter kept (the Studio's own included), no cache, no sharing. */
  private async previewPage(request: Request, requested: URL, preview: PreviewRequest) {
    try {
      const rendered = await this.renderPage(requested, '', undefined, preview)
      return rendered instanceof Response
        ? rendered
        : respond(rendered.page, 'MISS', request, false)
    } catch (error) {
      logRenderFailure(`${safe(requested.pathname)} in preview`, error)
      return renderFailed()
    }
  }

  /**
   * The kept page for `key`. Live: the cache is fresh. Reconnecting: it is as fresh as the last
   * event seen. Either way, not before a commit of this process's own lake has come through the
   * stream.
   */
  private cachedPage(key: string): RenderedPage | undefined | Promise<RenderedPage | undefined> {
    const events = this.options.events
    const upToDate = events?.upToDate()
    // Answered at once when nothing is awaited (nearly always): no promise made per page.
    if (upToDate === undefined || upToDate === true) return this.keptPage(key)
    return upToDate.then((usable) => (usable ? this.keptPage(key) : undefined))
  }

  private keptPage(key: string): RenderedPage | undefined {
    const events = this.options.events
    return events?.live === true || events?.state === 'reconnecting'
      ? this.pages.get(key)
      : undefined
  }

  /** A render now; when the content store did not answer, the copy from before, else a 503. */
  private async freshPage(request: Request, url: URL, key: string): Promise<Response> {
    let rendered: Rendered | Response
    try {
      rendered = await this.sharedRender(url, key)
    } catch (error) {
      logRenderFailure(safe(url.pathname + url.search), error)
      return renderFailed()
    }
    if (rendered instanceof Response) return rendered.clone()
    if (!rendered.unreachable) return respond(rendered.page, 'MISS', request)
    const copy = this.pages.staleCopy(key)
    if (copy) return respond(copy, 'STALE', request)
    return storeUnavailable(request.method === 'HEAD')
  }

  /**
   * Concurrent misses for one address share one render, unless the content changed since it
   * started (then it is stale: render again).
   */
  private sharedRender(url: URL, key: string): Promise<Rendered | Response> {
    const flightKey = `${this.pages.generations().pages}|${key}`
    let pending = this.inflight.get(flightKey)
    if (!pending) {
      pending = this.renderPage(url, key).finally(() => this.inflight.delete(flightKey))
      this.inflight.set(flightKey, pending)
    }
    return pending
  }
}
