import type {Hono} from 'hono'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import type {ServedBuild} from '../build/served.ts'
import {createSiteHandler} from './handler.ts'
import {internalHeaders} from '../lake/index.ts'
import {sentMarkers} from '../contact/sentMarkers.ts'
import {previewOf, type PreviewAccess} from '../preview/access.ts'

/**
 * The public site, mounted last as the catch-all: browser assets from dist/client and every
 * other GET rendered on the server by dist/server's renderer. Rendered pages are cached until
 * the lake reports a content change; in hosted mode (no lake to listen to) nothing is cached.
 * Pages in preview mode are never cached. `build` is the build resolved at start
 * (server/build/served.ts): a rebuild while this process runs changes nothing it serves.
 */
export function mountSite(
  app: Hono,
  ctx: AppContext,
  preview: PreviewAccess,
  build: ServedBuild,
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
        })
        site = {siteUrl: ctx.config.siteUrl, config}
      }
      return site.config
    },
    contentOrigin: () => ctx.internalOrigin(),
    // The site's own queries are not a visitor's: no per-client caps (server/lake/api/internal.ts).
    contentHeaders: () => (ctx.lake ? internalHeaders(ctx.lake) : {}),
    cache: ctx.lake !== undefined,
    sentMarkers,
  })
  const unsubscribe = ctx.onContentChange(() => handler.invalidate())
  app.get('*', (c) => {
    // In preview (a live preview cookie over HTTPS), the drafts, rendered for this request alone.
    const session = previewOf(c, preview)
    return handler.handle(c.req.raw, session ? {headers: session.credential} : undefined)
  })
  return {close: () => void unsubscribe()}
}
