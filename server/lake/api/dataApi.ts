import type {Hono} from 'hono'
import {QueryCache} from './queryCache.ts'
import {registerDoc} from './doc.ts'
import {registerMutate} from './mutate.ts'
import {registerActions} from './actions.ts'
import {badRequest} from '../errors.ts'
import {errorResponse} from '../../http/errorResponse.ts'
import type {Lake} from '../lake.ts'
import {queryAnswerer, registerQuery} from './query.ts'
import {siteQuery, type SiteQuery} from './siteQuery.ts'
import {registerListen} from './listen.ts'
import {registerLiveEvents} from './liveEvents.ts'
import {StreamSlots} from './openStreams.ts'
import {registerHistory} from './history.ts'
import {registerExport} from './export.ts'
import {registerFeatures} from './features.ts'
import {registerDataPing} from './dataPing.ts'
import {touchesPublic} from '../events/publicChange.ts'

/** Paths exactly as @sanity/client builds them with `useProjectHostname: false`: /v{version}/... */
const versionPattern = /^v(\d{4}-\d{2}-\d{2}|1|X)$/
/** First path segments after the version that belong to the Sanity API (not to the site). */
const apiRoots = new Set([
  'data',
  'users',
  'projects',
  'auth',
  'assets',
  'socket',
  'datasets',
  'journey',
  'intake',
  'ping',
  'help',
  'features',
  'check',
  'jobs',
  'geoip',
])

/** `v1`/`vX`, or a real date: `v2023-13-45` is refused as Sanity does. */
function isCalendarDate(value: string): boolean {
  if (value === '1' || value === 'X') return true
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

/**
 * Mounts the data API (`/data/…`: query, doc, mutate, actions, listen, live events, history,
 * export, ping) on `app`. Errors are answered in Sanity's JSON shape by the app's error handler; an API
 * path with a malformed version prefix is a 400. The whole lake is mounted by routes.ts.
 */
export function registerDataApi(
  app: Hono,
  lake: Lake,
  /** Visitors' listen and live-event streams in all (openStreams.ts). */
  maxAnonymousStreamsInAll?: number,
): {cache: QueryCache; siteQuery: SiteQuery; close(): void} {
  const cache = new QueryCache()
  const unsubscribe = lake.onCommit((tx) => {
    if (touchesPublic(tx)) cache.clear()
  })
  /** Versions already checked (clients use one or two), so a request does not parse its date again. */
  const validVersions = new Set<string>()
  app.use('/:version/:root/*', async (c, next) => {
    const version = c.req.param('version')
    if (
      validVersions.has(version) ||
      !version.startsWith('v') ||
      !apiRoots.has(c.req.param('root'))
    )
      return next()
    if (!versionPattern.test(version) || !isCalendarDate(version.slice(1))) {
      return errorResponse(
        badRequest(`Invalid API version "${version}"; expected vYYYY-MM-DD, v1 or vX`),
        c,
      )
    }
    if (validVersions.size < 100) validVersions.add(version)
    return next()
  })
  const answerQuery = queryAnswerer(lake, cache)
  registerQuery(app, lake, cache, answerQuery)
  registerDoc(app, lake)
  registerMutate(app, lake)
  registerActions(app, lake)
  // One count of open streams for listen and live events: the caps bound both.
  const slots = new StreamSlots(maxAnonymousStreamsInAll)
  const listen = registerListen(app, lake, {slots})
  const live = registerLiveEvents(app, lake, {slots})
  registerHistory(app, lake)
  registerExport(app, lake)
  registerFeatures(app, lake)
  registerDataPing(app, lake)
  return {
    cache,
    siteQuery: siteQuery(answerQuery),
    close() {
      unsubscribe()
      listen.close()
      live.close()
    },
  }
}
