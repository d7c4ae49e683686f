import type {Hono, MiddlewareHandler} from 'hono'
import type {ServerConfig} from '../env.ts'
import {isStudioOrigin} from './origins.ts'

const allowedMethods = 'GET,POST,PUT,PATCH,DELETE,OPTIONS'

/**
 * CORS for the Studio's origins only (the Studio's clients send `authorization`,
 * `content-type` and `x-sanity-app`, and preflight every cross-origin call). Other origins get
 * no CORS headers, so browsers refuse them; same-origin calls need none.
 */
export function studioCors(config: ServerConfig): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin')
    if (!isStudioOrigin(config, origin)) return next()
    await next()
    c.res.headers.set('access-control-allow-origin', origin as string)
    c.res.headers.set('access-control-allow-credentials', 'true')
    c.res.headers.append('vary', 'Origin')
  }
}

/** Answers preflights (`OPTIONS`) for the lake's API paths. */
export function registerPreflight(app: Hono, config: ServerConfig): void {
  app.options('/:version/*', (c) => {
    const origin = c.req.header('origin')
    if (!isStudioOrigin(config, origin)) {
      console.warn(
        `[studio] CORS preflight from a foreign origin refused: ${origin ?? '(none)'} ${c.req.path}`,
      )
      return c.body(null, 403)
    }
    return c.body(null, 204, {
      'access-control-allow-origin': origin as string,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': allowedMethods,
      'access-control-allow-headers':
        c.req.header('access-control-request-headers') ?? 'authorization, content-type',
      'access-control-max-age': '600',
      vary: 'Origin',
    })
  })
}
