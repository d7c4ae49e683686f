import type {Context, MiddlewareHandler} from 'hono'
import type {Federation} from '@fedify/fedify'
import {asksForActivity} from './asksForActivity.ts'
import {guardInbox, type InboxGuardOptions} from './inboxGuard.ts'

const isInboxPost = (method: string, path: string) =>
  method === 'POST' && /^\/social\/(?:[^/]+\/)?inbox$/.test(path)

/**
 * The same request at SITE_URL's origin: Fedify makes every id and URL from the request's
 * origin, which behind a TLS proxy (or on the site's internal listener) is not the public one.
 * SITE_URL is the site's canonical origin everywhere else too (canonical links, feeds).
 */
function atSiteOrigin(request: Request, siteUrl: string): Request {
  const url = new URL(request.url)
  const target = new URL(`${url.pathname}${url.search}`, siteUrl)
  if (target.href === url.href) return request
  const init: RequestInit & {duplex?: 'half'} = {method: request.method, headers: request.headers}
  if (request.body) {
    init.body = request.body
    init.duplex = 'half'
  }
  return new Request(target, init)
}

/**
 * Fedify in the Hono app, as `@fedify/hono` does it (that package is not published for Fedify 2
 * here), on the federation's own paths only (WebFinger, NodeInfo, the actor, its collections and
 * inbox): `federation.fetch` answers them all, an unknown one with 404.
 */
export function federationMiddleware(
  federation: () => Federation<void>,
  siteUrl: () => string,
  guard: InboxGuardOptions,
): MiddlewareHandler {
  return async (c: Context) => {
    let request = atSiteOrigin(c.req.raw, siteUrl())
    if (isInboxPost(c.req.method, c.req.path)) {
      const guarded = await guardInbox(c, request, guard)
      if (!guarded) return c.body(null, 202)
      request = guarded
    }
    const notFound = () => new Response('Not found', {status: 404})
    return federation().fetch(request, {
      contextData: undefined,
      onNotFound: notFound,
      onNotAcceptable: notFound,
    })
  }
}

/**
 * A post's address (`/blog/:slug`) is the site's page, and its `Article` only for a GET that
 * asks for ActivityPub (asksForActivity.ts): every other request, a browser's included, goes
 * straight on to the site and never reaches Fedify. A slug with no shared post is the site's
 * answer too (its 404 page).
 */
export function articleMiddleware(
  federation: () => Federation<void>,
  siteUrl: () => string,
): MiddlewareHandler {
  return async (c: Context, next) => {
    const read = c.req.method === 'GET' || c.req.method === 'HEAD'
    if (!read || !asksForActivity(c.req.header('accept'))) return next()
    let passed = false
    const handOn = async () => {
      passed = true
      await next()
      return c.res
    }
    const response = await federation().fetch(atSiteOrigin(c.req.raw, siteUrl()), {
      contextData: undefined,
      onNotFound: handOn,
      onNotAcceptable: handOn,
    })
    return passed ? undefined : response
  }
}
