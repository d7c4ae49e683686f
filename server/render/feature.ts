import type {Hono} from 'hono'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import type {ServedBuild} from '../build/served.ts'
import {createSiteHandler} from './handler.ts'
import {searchRateLimit} from './searchRate.ts'
import {socialWebEnabled, subscriptionsEnabled} from '../context.ts'
import type {SiteQuery} from '../lake/index.ts'
import type {PreviewCredential} from '../previewReads.ts'
import type {Context} from 'hono'
import type {PageObserver} from '../http/sitePages.ts'

/** What the wiring (server/app.ts) hands the site, so that it imports no other feature. */
export interface SiteWiring {
  /** The build resolved at start (server/build/served.ts). */
  build: ServedBuild
  /** How a request is seen in preview (server/previewReads.ts); undefined: not in preview. */
  previewReads(c: Context): PreviewCredential | undefined
  /**
   * The contact relay's one-time markers: this process's (server/http/sentMarkers.ts) or, in a
   * site process, the content process's (server/forward/remoteSentMarkers.ts).
   */
  sentMarkers: {take(token: string): boolean | Promise<boolean>}
  /** The lake in this process, read without a socket (server/lake/api/siteQuery.ts). */
  contentQuery?: SiteQuery
  /** Told of every answer of the site's route: the reader statistics' counting. */
  observePage?: PageObserver
}

/**
 * The public site, mounted last as the catch-all: browser assets from dist/client and every
 * other GET rendered on the server by dist/server's renderer. Rendered pages are cached while the
 * content store's live events flow, and dropped by the sync tags their queries carried
 * (server/live/contentEvents.ts), in every mode. Pages in preview mode are never cached. `build`
 * is the build resolved at start (server/build/served.ts): a rebuild while this process runs
 * changes nothing it serves. Where preview sessions and the relay's markers live is the
 * wiring's to say (SiteWiring).
 */
export function mountSite(app: Hono, ctx: AppContext, wiring: SiteWiring): Feature {
  // Resolved again only when SITE_URL changes (it is known only after listen).
  let site = {siteUrl: '', config: resolveSiteConfig({siteUrl: ''})}
  const {build, contentQuery} = wiring
  const handler = createSiteHandler({
    distDir: build.dir,
    ...(build.previous ? {previousDistDir: build.previous} : {}),
    site: () => {
      if (site.siteUrl !== ctx.config.siteUrl) {
        const config = resolveSiteConfig({
          hostedProjectId: ctx.config.hostedProjectId,
          siteUrl: ctx.config.siteUrl,
          contactAction: ctx.config.contactAction,
          editingSamplesUrl: ctx.config.editingSamplesUrl,
          subscriptions: subscriptionsEnabled(ctx),
          socialWeb: socialWebEnabled(ctx),
        })
        site = {siteUrl: ctx.config.siteUrl, config}
      }
      return site.config
    },
    contentOrigin: () => ctx.contentOrigin(),
    // The site's own queries are not a visitor's: no per-client caps (server/lake/api/internal.ts).
    contentHeaders: () => ctx.contentHeaders(),
    ...(contentQuery ? {contentQuery} : {}),
    events: ctx.contentEvents,
    sentMarkers: wiring.sentMarkers,
  })
  app.get('/search', searchRateLimit())
  // In preview (a live preview cookie over HTTPS), the drafts, rendered for this request alone.
  const {observePage} = wiring
  app.get('*', async (c) => {
    const response = await handler.handle(c.req.raw, wiring.previewReads(c))
    observePage?.(c, response)
    return response
  })
  return {close: () => handler.close()}
}
