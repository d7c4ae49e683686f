import {request as httpRequest, type IncomingMessage} from 'node:http'
import {request as httpsRequest} from 'node:https'
import type {Context, Hono} from 'hono'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {clientOf, forwardedAddress} from '../http/clientAddress.ts'
import {refusals, safe} from '../http/log.ts'

/** The content process's own inbox cap (server/social/inboxGuard.ts): nothing larger is read. */
const maxInboxBytes = 256 * 1024
/** Longer than a remote server's patience with an inbox (Mastodon's is 10 s), then 504. */
const upstreamTimeoutMs = 15_000
/** Federation requests in flight in all; past it remote servers are told to come back (429). */
const maxInFlight = 64

/**
 * What the content process needs of a remote server's request: its signatures (draft-cavage's
 * `Signature` and `Digest`, RFC 9421's `Signature-Input`, `Signature` and `Content-Digest`,
 * both over `Date` and `Host`) and what it asks for. Nothing else (no cookies).
 */
const requestHeaders = [
  'accept',
  'content-type',
  'date',
  'digest',
  'content-digest',
  'signature',
  'signature-input',
  'user-agent',
]
const responseHeaders = [
  'content-type',
  'cache-control',
  'vary',
  'link',
  'location',
  'retry-after',
  'access-control-allow-origin',
]

/** Answers are JSON documents of a page or less (a collection page holds 20 items). */
const maxAnswerBytes = 1024 * 1024

/** The content process's answer, whole (it is small), or undefined past `maxAnswerBytes`. */
async function readAnswer(upstream: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of upstream as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxAnswerBytes) {
      upstream.destroy()
      return undefined
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Does this request ask for ActivityStreams (a post URL asked for its `Article`)? */
const wantsActivity = (accept: string | undefined) =>
  /application\/(activity\+json|ld\+json)/i.test(accept ?? '')

/** The federation paths of docs/social-web.md; a post's URL only for activity+json. */
const federationPaths = [
  '/.well-known/webfinger',
  '/.well-known/nodeinfo',
  '/nodeinfo/*',
  '/social/*',
]

/**
 * Sends one request to the content process with node:http, not fetch: the remote server signed
 * the `Host` it sent to (this site's public host), and fetch would replace it with LAKE_URL's.
 */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      signal: AbortSignal.timeout(upstreamTimeoutMs),
    })
    request.once('response', resolve)
    request.once('error', reject)
    request.end(body)
  })
}

/**
 * A site process (LAKE_URL) forwards the social web's paths to the content process, which
 * alone holds the actor's keys and the delivery queue (docs/social-web.md): WebFinger, NodeInfo,
 * the actor, its inbox, outbox and collections, and a post's `Article` (its URL asked for as
 * activity+json; a browser's page stays here). The remote server's signed headers and `Host`
 * go along unchanged so the content process verifies its signature; bodies are read under the
 * inbox's cap (413), requests in flight are bounded (429), the whole exchange is timed (504).
 */
export function mountFederationForward(app: Hono, lakeUrl: string): void {
  let inFlight = 0
  const forward = async (c: Context): Promise<Response> => {
    if (inFlight >= maxInFlight) {
      refusals.refuse(
        clientOf(c).key,
        'forward-federation-busy',
        `[forward] 429 ${safe(c.req.path)}`,
      )
      return c.json({error: 'Too many requests in flight'}, 429, {'retry-after': '5'})
    }
    inFlight++
    try {
      return await forwardActivity(c, lakeUrl)
    } finally {
      inFlight--
    }
  }
  for (const path of federationPaths) app.on(['GET', 'POST'], path, forward)
  app.get('/blog/:slug', (c, next) => (wantsActivity(c.req.header('accept')) ? forward(c) : next()))
}

async function forwardActivity(c: Context, lakeUrl: string): Promise<Response> {
  let body: Uint8Array | undefined
  if (c.req.method === 'POST') {
    try {
      body = await readBody(c.req.raw, maxInboxBytes)
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error
      refusals.refuse(clientOf(c).key, 'forward-too-large', `[forward] 413 ${safe(c.req.path)}`)
      return c.json({error: `An activity is at most ${maxInboxBytes} bytes.`}, 413)
    }
  }
  const incoming = new URL(c.req.url)
  let upstream: IncomingMessage
  try {
    upstream = await send(
      new URL(incoming.pathname + incoming.search, lakeUrl),
      c.req.method,
      signedRequestHeaders(c, body),
      body,
    )
  } catch (error) {
    console.warn(`[forward] ${c.req.method} ${safe(c.req.path)}: no answer (${String(error)})`)
    return c.json({error: 'The content process could not be reached'}, 503, {
      'retry-after': '5',
    })
  }
  const passed = new Headers()
  for (const name of responseHeaders) {
    const value = upstream.headers[name]
    if (typeof value === 'string') passed.set(name, value)
  }
  const status = upstream.statusCode ?? 502
  const answer = await readAnswer(upstream)
  if (!answer) return c.json({error: 'The content process answered too much'}, 502)
  return new Response([204, 304].includes(status) ? null : answer, {status, headers: passed})
}

/** The remote server's signed headers and `Host`, unchanged, and who the visitor is. */
function signedRequestHeaders(c: Context, body: Uint8Array | undefined): Record<string, string> {
  const client = clientOf(c)
  const headers: Record<string, string> = {
    host: c.req.header('host') ?? new URL(c.req.url).host,
    'x-forwarded-proto': client.secure ? 'https' : 'http',
  }
  const address = forwardedAddress(client)
  if (address) headers['x-forwarded-for'] = address
  for (const name of requestHeaders) {
    const value = c.req.header(name)
    if (value !== undefined) headers[name] = value
  }
  if (body) headers['content-length'] = String(body.byteLength)
  return headers
}
