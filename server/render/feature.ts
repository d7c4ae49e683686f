import type {Hono} from 'hono'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import type {ServedBuild} from '../build/served.ts'
import {createSiteHandler} from './handler.ts'
import {searchRateLimit} from './searchRate.ts'
import {sentMarkers} from '../http/sentMarkers.ts'
import {remoteSentMarkers} from '../forward/remoteSentMarkers.ts'
import {subscriptionsEnabled} from '../newsletter/feature.ts'
import {previewOf, type PreviewAccess} from '../preview/access.ts'
import {presentedPreviewToken} from '../preview/cookie.ts'
import {clientOf} from '../http/clientAddress.ts'
import type {RemotePreview} from '../forward/remotePreview.ts'
import type {SiteQuery} from '../lake/index.ts'

/**
 * The public site, mounted last as the catch-all: browser assets from dist/client and every
 * other GET rendered on the server by dist/server's renderer. Rendered pages are cached while the
 * content store's live events flow, and dropped by the sync tags their queries carried
 * (server/live/contentEvents.ts), in every mode. Pages in preview mode are never cached. `build`
 * is the build resolved at start (server/build/served.ts): a rebuild while this process runs
 * changes nothing it serves. A site process (LAKE_URL) previews with the content process's
 * sessions.
 */
export function mountSite(
  app: Hono,
  ctx: AppContext,
  preview: PreviewAccess | undefined,
  build: ServedBuild,
  /** A site process's preview: sessions asked of the content process (server/forward/). */
  remote?: RemotePreview,
  /** The lake in this process, read without a socket (server/lake/api/siteQuery.ts). */
  contentQuery?: SiteQuery,
): Feature {
  // Resolved again only when SITE_URL changes (it is known only after listen).
  let site = {siteUrl: '', config: resolveSiteConfig({siteUrl: ''})}
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
    // A site process's relay is the content process's: the markers are taken there.
    sentMarkers:
      ctx.config.lakeUrl === undefined ? sentMarkers : remoteSentMarkers(ctx.config.lakeUrl),
  })
  app.get('/search', searchRateLimit())
  app.get('*', (c) => {
    // In preview (a live preview cookie over HTTPS), the drafts, rendered for this request alone.
    const token = presentedPreviewToken(c)
    if (remote)
      return handler.handle(
        c.req.raw,
        token
          ? async () => {
              const credential = await remote.credential(token, clientOf(c).key)
              return credential ? {headers: credential} : undefined
            }
          : undefined,
      )
    if (!preview || !token) return handler.handle(c.req.raw)
    return handler.handle(c.req.raw, () => {
      const session = previewOf(c, preview)
      return session ? {headers: session.credential} : undefined
    })
  })
  return {close: () => handler.close()}
}
