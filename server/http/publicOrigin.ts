import type {Context} from 'hono'
import {clientOf} from './clientAddress.ts'

/**
 * The origin the visitor's browser is on. Behind a TLS proxy the request reaches the plain
 * listener as `http://<host>`; when the proxy is trusted (TRUST_PROXY=loopback) and says
 * `X-Forwarded-Proto: https`, the browser's origin is `https://<host>`, and any absolute URL
 * we hand back (a login provider, a redirect) must use it: an `http://` link to a TLS-only port
 * fails, and a downgrade would leak the owner's session over plain HTTP.
 */
export function publicOrigin(c: Context): string {
  const url = new URL(c.req.url)
  if (url.protocol === 'http:' && clientOf(c).secure) url.protocol = 'https:'
  return url.origin
}
