import type {Context, Next} from 'hono'
import {clientOf} from '../http/clientAddress.ts'
import {refusals} from '../http/log.ts'
import {RateLimiter} from '../util/rateLimit.ts'
import {retryWording} from '../http/formRefusal.ts'

/** Searches one client may run per window: a reader types a handful; a scraper is slowed. */
export const searchesPerWindow = 40
export const searchWindowMs = 20_000

/**
 * A per-client cap on `/search` (docs/search.md): an uncached search for a common word still costs
 * the lake a pass over the posts that contain it, so one client gets `searchesPerWindow` per
 * `searchWindowMs` (the app's one window counter, server/util/rateLimit.ts), then a 429 page.
 */
export function searchRateLimit(now: () => number = Date.now) {
  const limiter = new RateLimiter({limit: searchesPerWindow, windowMs: searchWindowMs, now})
  return async (c: Context, next: Next): Promise<Response | void> => {
    const key = clientOf(c).key
    const retryAfter = limiter.take(key)
    if (retryAfter > 0) {
      // Once per client a minute, then counted (server/http/log.ts; security review 3, L1).
      refusals.refuse(
        key,
        'search 429',
        `[search] ${key} over ${searchesPerWindow} searches in ${searchWindowMs} ms`,
      )
      return c.html(
        `<!doctype html><html lang="en"><title>Too many searches</title><h1>Too many searches</h1><p>${retryWording(retryAfter)}</p></html>`,
        429,
        {'retry-after': String(retryAfter), 'x-robots-tag': 'noindex'},
      )
    }
    await next()
  }
}
