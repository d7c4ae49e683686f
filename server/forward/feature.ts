import type {Context, Hono} from 'hono'
import {clientOf} from '../http/clientAddress.ts'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {safe} from '../http/log.ts'
import {contactPagePath} from '../contact/redirect.ts'
import {refuse} from '../contact/respond.ts'
import {contactPath} from '../contact/routes.ts'

/** Largest body forwarded: a POSTed query (the lake's own cap) or a contact message. */
const maxBodyBytes = 1024 * 1024
/** Longer than the lake's budget for a query (10 s), shorter than a browser's patience. */
const upstreamTimeoutMs = 15_000
/** Forwards in flight from one visitor (a page issues one or two reads at a time). */
const maxPerClient = 8
/** Forwards in flight in all: past it the content process is the bottleneck anyway. */
const maxTotal = 256

/** Request headers the content process needs; nothing else (no cookies, no credentials). */
const requestHeaders = [
  'accept',
  'content-type',
  'if-none-match',
  'user-agent',
  'origin',
  'referer',
]
/** Response headers passed back; hop-by-hop and encoding headers are this hop's own. */
const responseHeaders = [
  'content-type',
  'cache-control',
  'etag',
  'last-modified',
  'location',
  'retry-after',
  'x-cache',
  'vary',
  'content-security-policy',
  'x-content-type-options',
]

/**
 * A site process (LAKE_URL) forwards the few browser-facing paths a public page uses to the
 * content process: content reads (Load More), contact posts and images. The visitor's address
 * goes along as X-Forwarded-For (the content process believes it with TRUST_PROXY=loopback when
 * both run on one machine); nothing of the visitor's but the listed headers is passed on.
 */
export function mountForward(app: Hono, lakeUrl: string): void {
  const inFlight = new Map<string, number>()
  let total = 0

  const forward = async (c: Context, unreachable: () => Response | Promise<Response>) => {
    const client = clientOf(c)
    const mine = inFlight.get(client.key) ?? 0
    if (mine >= maxPerClient || total >= maxTotal) {
      console.warn(`[forward] 429 ${c.req.method} ${safe(c.req.path)} from ${client.key}`)
      return c.json(
        {error: {type: 'tooManyRequests', description: 'Too many requests in flight'}},
        429,
        {'retry-after': '1'},
      )
    }
    inFlight.set(client.key, mine + 1)
    total++
    try {
      let body: Uint8Array<ArrayBuffer> | undefined
      if (c.req.method === 'POST') {
        try {
          body = await readBody(c.req.raw, maxBodyBytes)
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error
          console.warn(`[forward] 413 ${safe(c.req.path)} from ${client.key}`)
          return c.json({error: {type: 'requestEntityTooLarge', description: error.message}}, 413)
        }
      }
      const incoming = new URL(c.req.url)
      const headers: Record<string, string> = {
        // Identity: fetch() would decode a compressed answer and leave its header wrong.
        'accept-encoding': 'identity',
        'x-forwarded-for': client.key,
        'x-forwarded-proto': client.secure ? 'https' : 'http',
      }
      for (const name of requestHeaders) {
        const value = c.req.header(name)
        if (value !== undefined) headers[name] = value
      }
      let upstream: Response
      try {
        upstream = await fetch(new URL(incoming.pathname + incoming.search, lakeUrl), {
          method: c.req.method,
          headers,
          ...(body ? {body} : {}),
          signal: AbortSignal.timeout(upstreamTimeoutMs),
          redirect: 'manual',
        })
      } catch (error) {
        console.warn(
          `[forward] ${c.req.method} ${safe(c.req.path)}: the content process did not answer (${String(error)})`,
        )
        return await unreachable()
      }
      const passed = new Headers()
      for (const name of responseHeaders) {
        const value = upstream.headers.get(name)
        if (value !== null) passed.set(name, value)
      }
      // Streamed through, not held.
      return new Response(upstream.body, {status: upstream.status, headers: passed})
    } finally {
      total--
      const left = (inFlight.get(client.key) ?? 1) - 1
      if (left === 0) inFlight.delete(client.key)
      else inFlight.set(client.key, left)
    }
  }

  const unavailableJson = (c: Context) => () =>
    c.json(
      {error: {type: 'serviceUnavailable', description: 'The content source could not be reached'}},
      503,
      {'retry-after': '5'},
    )
  const query = (c: Context) => forward(c, unavailableJson(c))
  // Only version-shaped prefixes, as the lake's own routes (server/lake/api/routes.ts).
  const queryPath = '/:version{v[0-9]{4}-[0-9]{2}-[0-9]{2}|v1|vX}/data/query/:dataset'
  app.get(queryPath, query)
  app.post(queryPath, query)
  app.get('/images/:projectId/:dataset/:file', (c) => forward(c, unavailableJson(c)))
  app.post(contactPath, (c) =>
    forward(c, () =>
      refuse(
        c,
        503,
        'The contact form cannot take messages right now. Please try again in a minute.',
        contactPagePath,
      ),
    ),
  )
}
