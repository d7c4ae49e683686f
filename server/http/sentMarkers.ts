import {OneTimeTokens} from './oneTimeTokens.ts'
import {sentParam} from '../../shared/constants.ts'

/** A marker waits this long for the browser to follow the relay's 303, which it does at once. */
export const sentMarkerTtlMs = 60_000

/**
 * At most this many markers wait at once (the oldest goes first): posts are already limited per
 * client (server/util/rateLimit.ts), and this bounds memory whatever many clients do.
 */
export const maxSentMarkers = 10_000

/**
 * One-time markers for the thank-you toast after a native (no-JavaScript) post: the relay sends
 * the visitor back to `_next?sent=<token>`, and the page renderer shows the toast only if it can
 * take that token (server/render/handler.ts). A reload, Back or a shared link asks with a token
 * already taken, and gets the plain page. Kept in memory: a restart in between only loses a
 * toast, never a message (it was stored before the redirect).
 */
export class SentMarkers extends OneTimeTokens {
  constructor(now: () => number = Date.now) {
    super({ttlMs: sentMarkerTtlMs, max: maxSentMarkers, bytes: 16, now})
  }
}

/** The process's markers: the relay issues them, the page renderer takes them. */
export const sentMarkers = new SentMarkers()

/** `address` with a fresh one-time marker added (a relative address stays relative). */
export function withSentMarker(address: string, markers = sentMarkers): string {
  const relative = address.startsWith('/')
  const url = new URL(address, 'http://relative.invalid')
  url.searchParams.set(sentParam, markers.issue())
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.href
}

/**
 * Where a site process (LAKE_URL) takes a toast marker the relay issued: the relay runs here, the
 * page is rendered there (server/forward/remoteSentMarkers.ts). `?marker=` as the page got it.
 */
export const sentMarkerPath = '/api/contact/sent'

/** A marker is 16 random bytes in base64url (above): anything else is not looked up. */
const markerPattern = /^[\w-]{22}$/
export const isMarkerShaped = (value: string): boolean => markerPattern.test(value)
