import type {Context, Next} from 'hono'
import {clientOf} from '../http/clientAddress.ts'
import {refusals} from '../http/log.ts'
import {setNewest} from '../util/boundedMap.ts'

/** Searches one client may run per window: a reader types a handful; a scraper is slowed. */
export const searchesPerWindow = 40
export const searchWindowMs = 20_000
/** Clients remembered at once; a flood of new addresses forgets the oldest. */
const maxClients = 10_000

/**
 * A per-client cap on `/search` (docs/search.md): an uncached search for a common word still costs
 * the lake a pass over the posts that contain it, so one client gets `searchesPerWindow` per
 * `searchWindowMs`, then a 429 page.
 */
export function searchRateLimit(now: () => number = Date.now) {
  const windows = new Map<string, {start: number; count: number}>()
  return async (c: Context, next: Next): Promise<Response | void> => {
    const key = clientOf(c).key
    const time = now()
    const current = windows.get(key)
    const window =
      current && time - current.start < searchWindowMs ? current : {start: time, count: 0}
    window.count++
    setNewest(windows, key, window, maxClients)
    if (window.count > searchesPerWindow) {
      const retry = Math.ceil((window.start + searchWindowMs - time) / 1000)
      // Once per client a minute, then counted (server/http/log.ts; security review 3, L1).
      refusals.refuse(
        key,
        'search 429',
        `[search] ${key} over ${searchesPerWindow} searches in ${searchWindowMs} ms`,
      )
      return c.html(
        '<!doctype html><html lang="en"><title>Too many searches</title><h1>Too many searches</h1><p>Please wait a few seconds, then search again.</p></html>',
        429,
        {'retry-after': String(Math.max(1, retry)), 'x-robots-tag': 'noindex'},
      )
    }
    await next()
  }
}
