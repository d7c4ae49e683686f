import type {Context} from 'hono'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {clientOf} from '../http/clientAddress.ts'
import {HttpError} from '../http/httpError.ts'
import type {RateLimiter} from '../util/rateLimit.ts'

/** An inbox body this large is no activity anyone sends (Mastodon caps its own at 1 MB). */
export const inboxBodyLimit = 256 * 1024

/**
 * The host a signed request says it comes from: the host of its key id, in either signature
 * draft (cavage's `Signature`, RFC 9421's `Signature-Input`). Unverified, so only good for
 * bounding (rate limit, block list): a liar spends its own host's budget or is dropped with
 * it. An unsigned request is its client address; Fedify answers it 401 anyway.
 */
export function claimedHost(request: Request): string | undefined {
  const header = `${request.headers.get('signature') ?? ''} ${request.headers.get('signature-input') ?? ''}`
  const match = /keyid="([^"]{1,2048})"/i.exec(header)
  if (!match) return undefined
  try {
    return new URL(match[1]).host.toLowerCase()
  } catch {
    return undefined
  }
}

export interface InboxGuardOptions {
  limiter: RateLimiter
  /** Hosts (instances) the owner blocked: their activities are dropped before any fetch. */
  isBlockedHost: (host: string) => boolean
}

/**
 * Before Fedify reads an inbox POST: a blocked instance is answered 202 and dropped (no key
 * fetch, no storage, nothing that tells it it is blocked); a host over its rate gets 429 with
 * Retry-After; the body is read under `inboxBodyLimit` (413 past it). Returns the request with
 * its body read, for Fedify, or undefined when dropped.
 */
export async function guardInbox(
  c: Context,
  request: Request,
  options: InboxGuardOptions,
): Promise<Request | undefined> {
  const host = claimedHost(request)
  if (host && options.isBlockedHost(host)) return undefined
  const wait = options.limiter.take(host ?? clientOf(c).key)
  if (wait > 0) {
    c.header('Retry-After', String(wait))
    throw new HttpError(429, `Too many activities from ${host ?? 'this client'}; retry later.`)
  }
  let body: Uint8Array<ArrayBuffer>
  try {
    body = await readBody(request, inboxBodyLimit)
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new HttpError(413, `An activity is at most ${inboxBodyLimit} bytes.`)
    throw error
  }
  return new Request(request.url, {method: request.method, headers: request.headers, body})
}
