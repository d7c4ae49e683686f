import {Hono} from 'hono'
import type {AppContext} from './context.ts'
import type {Feature} from './feature.ts'
import {mountContact} from './contact/feature.ts'
import {mountDiscovery} from './discovery/feature.ts'
import {errorResponse} from './http/errorResponse.ts'
import {registerLakeRoutes} from './lake/index.ts'
import {mountPreview} from './preview/feature.ts'
import {resolveServedBuild} from './build/served.ts'
import {mountSite} from './render/feature.ts'
import {mountStudio} from './studio/feature.ts'
import {studioCors} from './studio/cors.ts'
import {isStudioOrigin, isStudioUrl} from './studio/origins.ts'
import {clientMiddleware} from './http/clientAddress.ts'
import {hostCheck} from './http/hostCheck.ts'
import {mountHealth} from './http/health.ts'
import {LakeReadiness} from './http/readiness.ts'
import {hsts} from './http/securityHeaders.ts'

/**
 * The one app every path is served from (../docs/architecture.md): the lake at the root like
 * api.sanity.io (every lake route, from server/lake/api/routes.ts), the Studio's bundle, the
 * contact relay, discovery files, then the site as catch-all.
 */
export function createApp(ctx: AppContext): {app: Hono; features: Feature[]} {
  const app = new Hono()
  const features: Feature[] = []
  // First, so the health checks pass no middleware: no Host check, no limits, no log lines.
  const readiness = ctx.lake ? new LakeReadiness(ctx.lake) : undefined
  mountHealth(app, async () => readiness?.ready() ?? true)
  app.use(clientMiddleware(ctx.config.trustProxy))
  app.use(hostCheck(ctx.config))
  app.use(hsts(ctx.config))
  // Before every route, so CORS does not depend on the order features register in.
  app.use(studioCors(ctx.config))
  app.onError(errorResponse)
  if (ctx.lake) {
    const {config} = ctx
    features.push(
      registerLakeRoutes(app, ctx.lake, {
        dataDir: config.dataDir,
        siteUrl: () => config.siteUrl,
        trustProxy: config.trustProxy,
        sessionIdleMs: config.sessionIdleMs,
        sessionMaxMs: config.sessionMaxMs,
        isStudioOrigin: (origin) => isStudioOrigin(config, origin),
        isStudioUrl: (url) => isStudioUrl(config, url),
      }),
    )
  }
  const preview = mountPreview(app, ctx)
  // Resolved once: a rebuild while the process runs changes nothing it serves.
  const build = resolveServedBuild()
  features.push({close: () => build.release()})
  mountStudio(app, ctx, build)
  for (const mount of [mountContact, mountDiscovery]) {
    const feature = mount(app, ctx)
    if (feature) features.push(feature)
  }
  features.push(mountSite(app, ctx, preview, build))
  return {app, features}
}
