import {IncomingMessage} from 'node:http'
import {Http2ServerRequest} from 'node:http2'
import type {Context} from 'hono'

/**
 * A request header by its lower-case name, read from Node's own parsed headers when the request
 * came through @hono/node-server (its `env.incoming`, as clientAddress.ts reads it), else through
 * Hono. Hono's `c.req.header` validates and lower-cases the name and walks the request's header
 * wrapper on each call, which for the reader statistics' seven reads a page view was a fair part
 * of counting it; Node has already parsed, lower-cased and joined them.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const env: unknown = c.env
  const incoming =
    typeof env === 'object' && env !== null && 'incoming' in env ? env.incoming : undefined
  if (incoming instanceof IncomingMessage || incoming instanceof Http2ServerRequest) {
    const value = incoming.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  return c.req.header(name)
}
