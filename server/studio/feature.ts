import {join} from 'node:path'
import type {Context, Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {ServedBuild} from '../build/served.ts'
import {registerModuleCdn} from './moduleCdn.ts'
import {studioHttpsOrigin} from '../http/studioOrigins.ts'
import {serveStudio} from './static.ts'
import {studioContentSecurityPolicy} from './contentSecurityPolicy.ts'

/**
 * Requests that arrived on the plain-HTTP listener. A TLS-terminating proxy in front says so
 * with X-Forwarded-Proto, and then the request already is HTTPS for the browser.
 */
function onPlainHttp(c: Context): boolean {
  if (c.req.header('x-forwarded-proto') === 'https') return false
  return new URL(c.req.url).protocol === 'http:'
}

/**
 * The embedded Studio's bundle (docs/studio.md): dist/studio at /studio over HTTPS + HTTP/2 (the
 * plain listener redirects there: the Studio stalls on HTTP/1.1; behind a TLS proxy it serves,
 * see studioHttpsOrigin), and, with a local lake, the answer to its version check (moduleCdn.ts:
 * a local Studio asks its own origin, docs/studio-protocol.md §g.5). The lake endpoints it calls
 * are mounted with every other lake route (server/lake/api/routes.ts). `build` is fixed at start
 * (server/build/served.ts). Its CORS is app-wide middleware (cors.ts, registered first in
 * server/app.ts).
 */
export function mountStudio(app: Hono, ctx: AppContext, build: ServedBuild): void {
  // Before /studio/*, which would answer it with the Studio's page.
  if (ctx.lake) registerModuleCdn(app)

  const studio = (c: Context) => {
    const https = onPlainHttp(c) ? studioHttpsOrigin(ctx.config) : undefined
    if (https === undefined)
      return serveStudio(c, {
        distDir: join(build.dir, 'studio'),
        previousDistDir: build.previous && join(build.previous, 'studio'),
        policy: studioContentSecurityPolicy(ctx.config),
      })
    const url = new URL(c.req.url)
    return c.redirect(`${https}${url.pathname}${url.search}`, 302)
  }
  app.get('/studio', studio)
  app.get('/studio/*', studio)
}
