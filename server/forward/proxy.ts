import type {Context} from 'hono'
import {clientOf, forwardedAddress} from '../http/clientAddress.ts'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {refusals, safe} from '../http/log.ts'

/** Largest body forwarded: a preview session's POSTed query (the lake's own cap for it). */
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
  'referrer-policy',
  'x-robots-tag',
]

/** Preview's routes also need the visitor's preview cookie, and the stream's resume position. */
const previewRequestHeaders = ['cookie', 'last-event-id']
/** A preview page's live-drafts stream is held open: bounded like Sanity's listeners (30 min). */
export const previewStreamMs = 30 * 60_000

export interface ForwardOptions {
  /** The body's cap while it streams (the content process's own cap for the route). */
  maxBytes?: number
  /** The whole exchange, body included. */
  timeoutMs?: number
  /** Preview's routes: the preview cookie goes along, and the one set comes back. */
  preview?: boolean
}

/** The headers sent up: the listed ones of the visitor's, the visitor's address, the scheme. */
function upstreamHeaders(c: Context, preview: boolean): Record<string, string> {
  const client = clientOf(c)
  const headers: Record<string, string> = {
    // Identity: fetch() would decode a compressed answer and leave its header wrong.
    'accept-encoding': 'identity',
    'x-forwarded-proto': client.secure ? 'https' : 'http',
  }
  // An IP the content process believes, naming the visitor's /24 or /48 as our key does.
  const address = forwardedAddress(client)
  if (address) headers['x-forwarded-for'] = address
  for (const name of preview ? [...requestHeaders, ...previewRequestHeaders] : requestHeaders) {
    const value = c.req.header(name)
    if (value !== undefined) headers[name] = value
  }
  return headers
}

/** The headers passed back: the listed ones, preview's cookie, and redirects made this site's. */
function passedHeaders(upstream: Response, preview: boolean, lakeOrigin: string): Headers {
  const passed = new Headers()
  for (const name of responseHeaders) {
    const value = upstream.headers.get(name)
    if (value !== null) passed.set(name, value)
  }
  if (preview)
    for (const cookie of upstream.headers.getSetCookie()) passed.append('set-cookie', cookie)
  // A redirect to the content process's own address (a relative `_next` resolves against
  // the request it got) is one to this site: keep the path, as a reverse proxy does.
  const location = passed.get('location')
  if (location?.startsWith(`${lakeOrigin}/`))
    passed.set('location', location.slice(lakeOrigin.length))
  return passed
}

/**
 * Forwards a request to the content process at `lakeUrl` and streams its answer back, with at
 * most `maxPerClient` forwards in flight per visitor and `maxTotal` in all (429 past either),
 * the body read under its route's cap (413 past it), and `unreachable`'s answer when the content
 * process does not answer.
 */
export function createForwarder(lakeUrl: string) {
  const slots = new ForwardSlots()
  const lakeOrigin = new URL(lakeUrl).origin
  return async (
    c: Context,
    unreachable: () => Response | Promise<Response>,
    {maxBytes = maxBodyBytes, timeoutMs = upstreamTimeoutMs, preview = false}: ForwardOptions = {},
  ) => {
    const client = clientOf(c)
    if (!slots.take(client.key)) {
      // Summarised per client and kind (server/http/log.ts): a flood writes one line a minute.
      refusals.refuse(
        client.key,
        'forward-in-flight',
        `[forward] 429 ${c.req.method} ${safe(c.req.path)} from ${client.key}: too many in flight`,
      )
      return c.json(
        {error: {type: 'tooManyRequests', description: 'Too many requests in flight'}},
        429,
        {'retry-after': '1'},
      )
    }
    try {
      const body = await forwardedBody(c, client.key, maxBytes)
      if (body instanceof Response) return body
      const incoming = new URL(c.req.url)
      let upstream: Response
      try {
        upstream = await fetch(new URL(incoming.pathname + incoming.search, lakeUrl), {
          method: c.req.method,
          headers: upstreamHeaders(c, preview),
          ...(body ? {body} : {}),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'manual',
        })
      } catch (error) {
        console.warn(
          `[forward] ${c.req.method} ${safe(c.req.path)}: the content process did not answer (${String(error)})`,
        )
        return await unreachable()
      }
      // Streamed through, not held.
      return new Response(upstream.body, {
        status: upstream.status,
        headers: passedHeaders(upstream, preview, lakeOrigin),
      })
    } finally {
      slots.release(client.key)
    }
  }
}

/** A POST's body, read under its route's cap; past it, the 413 to answer. */
async function forwardedBody(
  c: Context,
  clientKey: string,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | Response | undefined> {
  if (c.req.method !== 'POST') return undefined
  try {
    return await readBody(c.req.raw, maxBytes)
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error
    refusals.refuse(
      clientKey,
      'forward-too-large',
      `[forward] 413 ${safe(c.req.path)} from ${clientKey}: body over ${maxBytes} bytes`,
    )
    return c.json({error: {type: 'requestEntityTooLarge', description: error.message}}, 413)
  }
}

/** Forwards in flight: at most `maxPerClient` per visitor and `maxTotal` in all. */
class ForwardSlots {
  private readonly perClient = new Map<string, number>()
  private total = 0

  take(key: string): boolean {
    const mine = this.perClient.get(key) ?? 0
    if (mine >= maxPerClient || this.total >= maxTotal) return false
    this.perClient.set(key, mine + 1)
    this.total++
    return true
  }

  release(key: string): void {
    this.total--
    const left = (this.perClient.get(key) ?? 1) - 1
    if (left === 0) this.perClient.delete(key)
    else this.perClient.set(key, left)
  }
}
