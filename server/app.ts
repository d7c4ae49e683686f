import {Hono} from 'hono'
import type {AppContext} from './context.ts'
import type {Feature} from './feature.ts'
import {mountContact} from './contact/feature.ts'
import {mountDiscovery} from './discovery/feature.ts'
import {mountForward} from './forward/feature.ts'
import {remotePreview} from './forward/remotePreview.ts'
import {mountNewsletter} from './newsletter/feature.ts'
import {errorResponse} from './http/errorResponse.ts'
import {registerLakeRoutes, type LakeRoutes} from './lake/index.ts'
import {sitePrerenderUrls} from './siteForLake.ts'
import {mountPreview} from './preview/feature.ts'
import {resolveServedBuild} from './build/served.ts'
import {mountSite} from './render/feature.ts'
import {previewReads} from './previewReads.ts'
import {sentMarkers} from './http/sentMarkers.ts'
import {remoteSentMarkers} from './forward/remoteSentMarkers.ts'
import {mountStats} from './stats/feature.ts'
import {mountSocial} from './social/feature.ts'
import {mountStudio} from './studio/feature.ts'
import {studioCors} from './studio/cors.ts'
import {isStudioOrigin, isStudioUrl} from './http/studioOrigins.ts'
import {clientMiddleware} from './http/clientAddress.ts'
import {hostCheck} from './http/hostCheck.ts'
import {mountHealth} from './http/health.ts'
import {LakeReadiness} from './http/readiness.ts'
import {hsts} from './http/securityHeaders.ts'

/**
 * The one app every path is served from (../docs/architecture.md): the lake at the root like
 * api.sanity.io (every lake route, from server/lake/api/routes.ts), the Studio's bundle, the
 * contact relay, discovery files, then the site as catch-all. A content process (SERVE_SITE=0)
 * mounts no discovery and no site; a site process (LAKE_URL) mounts no lake, Studio or contact
 * relay, and forwards the paths a public page (and preview) uses.
 */
export function createApp(ctx: AppContext): {app: Hono; features: Feature[]} {
  const app = new Hono()
  const features: Feature[] = []
  const {lakeUrl, serveSite} = ctx.config
  mountEdge(app, ctx)
  const lakeRoutes = mountLake(app, ctx)
  if (lakeRoutes) features.push(lakeRoutes)
  // A site process's preview sessions are the content process's: asked there per page.
  const remotePreviews = lakeUrl === undefined ? undefined : remotePreview(lakeUrl)
  if (lakeUrl !== undefined) mountForward(app, lakeUrl, remotePreviews)
  const preview = lakeUrl === undefined ? mountPreview(app, ctx) : undefined
  // Resolved once: a rebuild while the process runs changes nothing it serves.
  const build = resolveServedBuild()
  features.push({close: () => build.release()})
  // A site process starts no Studio; a content process serves no pages.
  if (lakeUrl === undefined) mountStudio(app, ctx, build)
  // Reader statistics (server/stats/): pages counted by the site's route as it answers them, feed
  // readers in front of the feeds (mounted before them here), kept where the data is (a site
  // process sends its batches there).
  const stats = mountStats(app, ctx)
  features.push(stats)
  const mounts = [
    ...(lakeUrl === undefined ? [mountContact, mountNewsletter, mountSocial] : []),
    ...(serveSite ? [mountDiscovery] : []),
  ]
  for (const mount of mounts) {
    const feature = mount(app, ctx)
    if (feature) features.push(feature)
  }
  if (serveSite)
    features.push(
      mountSite(app, ctx, {
        build,
        previewReads: previewReads(preview, remotePreviews),
        // A site process's relay is the content process's: the markers are taken there.
        sentMarkers: lakeUrl === undefined ? sentMarkers : remoteSentMarkers(lakeUrl),
        contentQuery: lakeRoutes?.siteQuery,
        ...(stats.countPage ? {observePage: stats.countPage} : {}),
      }),
    )
  else app.get('*', (c) => c.text(contentProcessAnswer, 404))
  return {app, features}
}

const contentProcessAnswer =
  'This is a content process (SERVE_SITE=0): the site is served by its site processes.'

/** What every request passes first: health, the client's address, Host, HSTS, CORS, errors. */
function mountEdge(app: Hono, ctx: AppContext): void {
  const {lakeUrl} = ctx.config
  // First, so the health checks pass no middleware: no Host check, no limits, no log lines.
  // A site process is ready once the content store has welcomed it (it can then keep pages),
  // and stays ready while it is away (it serves what it holds).
  const readiness = ctx.lake ? new LakeReadiness(ctx.lake) : undefined
  let welcomed = false
  mountHealth(app, async () => {
    if (lakeUrl === undefined) return readiness?.ready() ?? true
    welcomed ||= ctx.contentEvents.live
    return welcomed
  })
  app.use(clientMiddleware(ctx.config.trustProxy))
  app.use(hostCheck(ctx.config))
  app.use(hsts(ctx.config))
  // Before every route, so CORS does not depend on the order features register in.
  app.use(studioCors(ctx.config))
  app.onError(errorResponse)
}

/** The lake's routes, where this process holds the lake. */
function mountLake(app: Hono, ctx: AppContext): LakeRoutes | undefined {
  if (!ctx.lake) return undefined
  const {config} = ctx
  return registerLakeRoutes(app, ctx.lake, {
    dataDir: config.dataDir,
    siteUrl: () => config.siteUrl,
    trustProxy: config.trustProxy,
    sessionIdleMs: config.sessionIdleMs,
    sessionMaxMs: config.sessionMaxMs,
    isStudioOrigin: (origin) => isStudioOrigin(config, origin),
    isStudioUrl: (url) => isStudioUrl(config, url),
    maxAnonymousStreamsInAll: ctx.maxAnonymousStreamsInAll,
    prerenderUrls: sitePrerenderUrls(config),
  })
}
