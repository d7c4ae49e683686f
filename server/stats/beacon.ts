import type {Context, Hono} from 'hono'
import {viewBeaconPath} from '../../shared/constants.ts'
import {BodyTooLargeError, logTooLarge, readBody} from '../http/body.ts'
import {clientOf} from '../http/clientAddress.ts'
import {HttpError} from '../http/httpError.ts'
import {isRecord} from '../util/isRecord.ts'
import {FailedAttempts} from '../util/failedAttempts.ts'
import {canonicalPath, clip} from './dimensions.ts'
import {agentOf} from './agents.ts'
import {countView, isCountableReader, type CountingOptions} from './middleware.ts'
import {pageOf} from './viewedPage.ts'

/** A path and a referrer: 2 KiB is far more than the boot script sends. */
export const maxBeaconBytes = 2 * 1024

/** Beacons per client a minute: a reader shows a handful of prerendered pages; 30 is plenty. */
export const beaconsPerMinute = 30

/** The site's own pages besides the posts (web/routes.tsx, as canonicalPath reduces them). */
const routePaths = new Set(['/', '/blog', '/services', '/testimonials', '/contact', '/search'])

export interface BeaconOptions extends CountingOptions {
  /** The posts' page paths, to count only pages that exist (titles.ts). */
  postPaths(): Promise<Set<string>>
}

/** The beacon's body: `{path, referrer}`, the path one of this site's, else undefined. */
function parseBeacon(bytes: Uint8Array): {url: URL; referrer: string} | undefined {
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', {fatal: true}).decode(bytes))
  } catch {
    return undefined
  }
  if (!isRecord(value) || typeof value.path !== 'string' || !value.path.startsWith('/'))
    return undefined
  if (value.path.startsWith('//') || value.path.length > 1024) return undefined
  const referrer = typeof value.referrer === 'string' ? clip(value.referrer) : ''
  try {
    return {url: new URL(value.path, 'http://site.invalid'), referrer}
  } catch {
    return undefined
  }
}

/**
 * `POST /api/stats/view`: the boot script's report that a prerendered page was shown (web/boot/
 * boot.ts). Unauthenticated, so checked like a page view and more: from this site's own pages
 * (`Sec-Fetch-Site: same-origin` when the browser sends it), a small JSON body read with a cap,
 * a page that exists, at most `beaconsPerMinute` per client; a person's, not the owner's. Bad
 * input is a 4xx that counts nothing; a beacon that is not to be counted (a bot) is answered 204
 * all the same, as the page's own request would have been served.
 */
export function registerBeacon(app: Hono, options: BeaconOptions): void {
  const now = options.now ?? Date.now
  const perClient = new FailedAttempts({limit: beaconsPerMinute, windowMs: 60_000})
  app.post(viewBeaconPath, async (c: Context) => {
    const client = clientOf(c).key
    const site = c.req.header('sec-fetch-site')
    if (site !== undefined && site !== 'same-origin')
      throw new HttpError(403, 'Only the site itself reports its pages.')
    const wait = perClient.retryAfterMs(client)
    if (wait > 0) {
      c.header('Retry-After', String(Math.ceil(wait / 1000)))
      throw new HttpError(429, 'Too many page reports.')
    }
    // Counted like an attempt: the window bounds every client's beacons, good or bad.
    perClient.fail(client)
    let bytes: Uint8Array
    try {
      bytes = await readBody(c.req.raw, maxBeaconBytes)
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error
      logTooLarge(client, c.req.method, c.req.path, maxBeaconBytes)
      throw new HttpError(413, 'That is too much for a page report.')
    }
    const beacon = parseBeacon(bytes)
    if (!beacon) throw new HttpError(400, 'A page report is {"path": "/…", "referrer": "…"}.')
    const path = canonicalPath(beacon.url.pathname)
    if (!routePaths.has(path) && !(await options.postPaths()).has(path))
      throw new HttpError(400, 'That is not a page of this site.')
    const agent = agentOf(c.req.header('user-agent'))
    if (isCountableReader(c, agent) && !options.isOwner(c))
      countView(c, options, agent, false, pageOf(beacon.url), beacon.referrer, now())
    return c.body(null, 204)
  })
}
