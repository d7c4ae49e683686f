import {searchPath} from '../../shared/canonicalPaths.ts'
import type {Flash} from '../../web/entry.server.tsx'
import {pageContentSecurityPolicy, permissionsPolicy} from '../http/securityHeaders.ts'
import {loadSiteBundle, type SiteBundle} from './bundle.ts'
import type {PreviewRequest, SiteHandlerOptions} from './siteHandlerOptions.ts'
import type {LivePages} from './livePages.ts'
import {RenderedPage} from './page.ts'
import {isOwnAddress} from './pageAddress.ts'

/** A render, and whether a query could not reach the content store. */
export interface Rendered {
  page: RenderedPage
  unreachable: boolean
}

/** Renders the page at `url`; `key` names it in the render cache ('' in preview: never kept). */
export type RenderPage = (
  url: URL,
  key: string,
  flash?: Flash,
  preview?: PreviewRequest,
) => Promise<Rendered | Response>

const notBuilt = 'The site is not built: run `npm run build`.'

/**
 * Renders pages with the site's server bundle, loaded on first use (and again after a failed
 * load: `npm run build` may run while the server does), and keeps in `pages` each render that the
 * live events vouch for from its start to its end.
 */
export function createPageRenderer(options: SiteHandlerOptions, pages: LivePages): RenderPage {
  let bundle: Promise<SiteBundle | undefined> | undefined
  const {events} = options
  return async (url, key, flash, preview) => {
    bundle ??= loadSiteBundle(options.distDir)
    const built = await bundle
    if (!built) {
      bundle = undefined
      return new Response(notBuilt, {
        status: 503,
        headers: {'content-type': 'text/plain; charset=utf-8'},
      })
    }
    const generations = pages.generations()
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
      const real = result.status === 200 && own && !search && isOwnAddress(result.html, url)
      pages.store(real ? 'pages' : 'others', key, page, result.syncTags, generations)
    }
    return {page, unreachable: result.contentUnreachable}
  }
}
