import {Hono} from 'hono'
import type {AppContext} from './context.ts'
import type {Feature} from './feature.ts'
import {mountContact} from './contact/feature.ts'
import {mountDiscovery} from './discovery/feature.ts'
import {LakeError} from './lake/errors.ts'
import {registerLakeRoutes} from './lake/api/routes.ts'
import {mountSite} from './render/feature.ts'
import {mountStudio} from './studio/feature.ts'
import {clientMiddleware} from './http/clientAddress.ts'

/**
 * The one app every path is served from (../docs/architecture.md): the lake at the root like
 * api.sanity.io, the Studio, the contact relay, discovery files, then the site as catch-all.
 */
export function createApp(ctx: AppContext): {app: Hono; features: Feature[]} {
  const app = new Hono()
  const features: Feature[] = []
  app.use(clientMiddleware(ctx.config.trustProxy))
  app.onError((error, c) => {
    if (error instanceof LakeError) {
      console.warn(
        `[http] ${c.req.method} ${c.req.path} → ${error.status} ${error.type}: ${error.message}`,
      )
      return c.json(error.toJSON(), error.status as 400)
    }
    console.error(`[http] ${c.req.method} ${c.req.path} → 500`, error)
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
