import type {Context, MiddlewareHandler} from 'hono'
import type {ServerConfig} from '../env.ts'
import {errorResponse} from '../http/errorResponse.ts'
import {HttpError, type ErrorStatus} from '../http/httpError.ts'
import {isStudioOrigin} from '../http/studioOrigins.ts'
import {requestHeader} from '../http/requestHeader.ts'

const allowedMethods = 'GET,POST,PUT,PATCH,DELETE,OPTIONS'

/**
 * How long a browser may reuse a preflight's answer, in seconds: the Studio preflights every
 * cross-origin call, and ten minutes spares most of them while a changed origin list still takes
 * effect soon.
 */
const preflightMaxAgeSeconds = 600

/** The lake's API paths (`/v2023-07-29/…`, `/v1/…`, `/vX/…`), the only ones preflights reach. */
const apiPath = /^\/v[^/]+\//

function preflight(c: Context, origin: string): Response {
  return c.body(null, 204, {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': allowedMethods,
    'access-control-allow-headers':
      c.req.header('access-control-request-headers') ?? 'authorization, content-type',
    'access-control-max-age': String(preflightMaxAgeSeconds),
    vary: 'Origin',
  })
}

/**
 * A preflight from an origin that is not the Studio: the app's error, in the shape every error
 * of the lake's API has (`{error: {type, description}}`), since it answers the lake's paths.
 */
class CorsRefusal extends HttpError {
  constructor() {
    super(403, 'CORS preflight from an origin that is not the Studio')
  }

  override get kind(): string {
    return 'cors'
  }

  override respond(c: Context, status: ErrorStatus): Response {
    return c.json({error: {type: 'httpForbidden', description: this.message}}, status)
  }
}

/**
 * CORS for the Studio's origins only (its clients send `authorization`, `content-type` and
 * `x-sanity-app`, and preflight every cross-origin call). Other origins get no CORS headers, so
 * browsers refuse them; same-origin calls need none. One middleware registered before every
 * route (server/app.ts), so every path — /data/query as much as /users/me — gets the same
 * headers whatever order the features register their routes in. A preflight from anywhere else
 * is a 403, logged through the refusal log.
 */
export function studioCors(config: ServerConfig): MiddlewareHandler {
  return async (c, next) => {
    const origin = requestHeader(c, 'origin')
    const allowed = isStudioOrigin(config, origin)
    if (c.req.method === 'OPTIONS' && apiPath.test(c.req.path)) {
      if (allowed) return preflight(c, origin)
      return errorResponse(new CorsRefusal(), c)
    }
    if (!allowed) return next()
    await next()
    c.res.headers.set('access-control-allow-origin', origin)
    c.res.headers.set('access-control-allow-credentials', 'true')
    c.res.headers.append('vary', 'Origin')
  }
}
