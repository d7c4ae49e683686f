/**
 * The answers that are pages the site rendered (server/render: render-cache hits included, the
 * ones that carry `X-Cache`), so the reader statistics (server/stats) can tell a page from an
 * asset or an API answer without reading the answer's headers: on @hono/node-server's
 * lightweight Response, the first read of `headers` builds a full Headers object, validating
 * each header, which cost a cached page more than the rest of its answer.
 */
import type {Context} from 'hono'

/** The mark a page carries: a property of its own, which a WeakSet entry per answer cost more. */
const pageMark = Symbol('sitePage')

interface MarkedResponse extends Response {
  [pageMark]?: true
}

/**
 * Told of each answer of the site's route (the reader statistics' counting, server/stats): a
 * call, where a middleware in front of every request cost each one a step of the chain.
 */
export type PageObserver = (c: Context, response: Response) => void

export function markSitePage(response: Response): Response {
  ;(response as MarkedResponse)[pageMark] = true
  return response
}

export function isSitePage(response: Response): boolean {
  return (response as MarkedResponse)[pageMark] === true
}
