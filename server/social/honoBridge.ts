import type {Context, MiddlewareHandler} from 'hono'
import type {Federation} from '@fedify/fedify'
import {guardInbox, type InboxGuardOptions} from './inboxGuard.ts'

/** Does this request ask for ActivityStreams (a post URL asked for its `Article`)? */
const wantsActivity = (accept: string | undefined) =>
  /application\/(activity\+json|ld\+json)/i.test(accept ?? '')

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
 * here): `federation.fetch` answers what is its own (WebFinger, NodeInfo, the actor, its
 * collections and inbox, a post's `Article`), and hands the rest on to the next handler (the
 * site's page for a browser asking for a post). Mounted on its paths only, so no page view
 * pays for it; a post's URL goes to Fedify only when ActivityStreams is asked for.
 */
export function federationMiddleware(
  federation: () => Federation<void>,
  siteUrl: () => string,
  guard: InboxGuardOptions,
): MiddlewareHandler {
  return async (c: Context, next) => {
    // Hono's `/blog/*` also matches `/blog`, the blog list: the site's page, never Fedify's.
    const sitePage = c.req.path === '/blog' || c.req.path.startsWith('/blog/')
    if (sitePage && !wantsActivity(c.req.header('accept'))) return next()
    let request = atSiteOrigin(c.req.raw, siteUrl())
    if (isInboxPost(c.req.method, c.req.path)) {
      const guarded = await guardInbox(c, request, guard)
      if (!guarded) return c.body(null, 202)
      request = guarded
    }
    // Only a post's address belongs to someone else (the site's page); Fedify's own paths
    // answer for themselves, so an unknown handle is WebFinger's 404, not the site's page.
    const mine = !sitePage
    let passed = false
    const handOn = async () => {
      if (mine) return new Response('Not found', {status: 404})
      passed = true
      await next()
      return c.res
    }
    const response = await federation().fetch(request, {
      contextData: undefined,
      onNotFound: handOn,
      onNotAcceptable: handOn,
    })
    return passed ? undefined : response
  }
}
