import {Hono} from 'hono'
import type {AppContext} from './context.ts'
import type {Feature} from './feature.ts'
import {mountContact} from './contact/feature.ts'
import {mountDiscovery} from './discovery/feature.ts'
import {LakeError} from './lake/errors.ts'
import {registerLakeRoutes} from './lake/api/routes.ts'
import {mountSite} from './render/feature.ts'
import {mountStudio} from './studio/feature.ts'
import {clientMiddleware, clientOf} from './http/clientAddress.ts'
import {hostCheck} from './http/hostCheck.ts'
import {mountHealth} from './http/health.ts'
import {LakeReadiness} from './http/readiness.ts'
import {refusals, safe} from './http/log.ts'
import {hsts} from './http/securityHeaders.ts'

/**
 * The one app every path is served from (../docs/architecture.md): the lake at the root like
 * api.sanity.io, the Studio, the contact relay, discovery files, then the site as catch-all.
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
  app.onError((error, c) => {
    const what = `${c.req.method} ${safe(c.req.path)}`
    if (error instanceof LakeError && error.status < 500) {
      // A refusal: logged once per client and kind per minute, so a flood cannot fill the log.
      const client = clientOf(c).key
      refusals.refuse(
        client,
        `${error.status} ${error.type}`,
        `[http] ${what} from ${client} → ${error.status} ${error.type}: ${error.message}`,
      )
      return c.json(error.toJSON(), error.status as 400)
    }
    if (error instanceof LakeError) {
      console.error(`[http] ${what} → ${error.status} ${error.type}: ${safe(error.message)}`)
      return c.json(error.toJSON(), error.status as 500)
    }
    // A handler's bug: this request fails, the process keeps serving.
    console.error(`[http] ${what} → 500`, error)
    return c.json({error: {type: 'internalServerError', description: 'Internal server error'}}, 500)
  })
  if (ctx.lake) {
    const lakeRoutes = registerLakeRoutes(app, ctx.lake)
    features.push({close: () => lakeRoutes.close()})
  }
  for (const mount of [mountStudio, mountContact, mountDiscovery, mountSite]) {
    const feature = mount(app, ctx)
    if (feature) features.push(feature)
  }
  return {app, features}
}
