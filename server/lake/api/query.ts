import {createHash} from 'node:crypto'
import type {Context, Hono} from 'hono'
import type {QueryCache} from './queryCache.ts'
import {badRequest} from '../errors.ts'
import {apiVersionOf, checkDataset, flag, identify, queryParams, readJsonBody} from './http.ts'
import type {Lake} from '../lake.ts'
import {defaultPerspective, parsePerspective, type Perspective} from '../perspective.ts'
import {LakeError} from '../errors.ts'
import {maxAnonymousQueriesPerClient} from '../queryPool/queryBudgets.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {ClientCounter, overCap} from './clientCaps.ts'
import {isInternal} from './internal.ts'
import {CachedBody} from '../../http/cachedBody.ts'
import {draftsTag, publicTag} from './liveEvents.ts'
import {isRecord} from '../../util/isRecord.ts'

function perspectiveOf(c: Context): Perspective {
  const requested = c.req.query('perspective')
  if (requested === undefined || requested === '') return defaultPerspective(apiVersionOf(c))
  const perspective = parsePerspective(requested)
  if (!perspective)
    throw badRequest(
      `Unsupported perspective "${requested}"; use raw, published, drafts, previewDrafts or a list of release ids and drafts`,
    )
  return perspective
}

/** GET|POST /v{version}/data/query/{dataset} */
export function registerQuery(app: Hono, lake: Lake, cache: QueryCache): void {
  const inFlight = new ClientCounter()
  const handle = async (c: Context) => {
    checkDataset(c, lake)
    const identity = identify(c, lake)
    const perspective = perspectiveOf(c)
    let query: unknown
    let params: Record<string, unknown>
    let rawKey: string
    if (c.req.method === 'POST') {
      const body = await readJsonBody(c, 1024 * 1024)
      query = body.query
      const p = body.params ?? {}
      if (!isRecord(p)) throw badRequest('"params" must be an object')
      params = p
      rawKey = JSON.stringify([query, params])
    } else {
      query = c.req.query('query')
      params = queryParams(c)
      rawKey = JSON.stringify([query, params])
    }
    if (typeof query !== 'string' || query.trim() === '') throw badRequest('Missing "query"')
    const returnQuery = flag(c, 'returnQuery', true)
    const key = `${String(perspective)}\u0000${returnQuery}\u0000${rawKey}`
    const anonymous = identity === undefined

    if (anonymous) {
      const hit = cache.get(key)
      if (hit) return respond(c, hit, true, 'HIT')
    }
    // The site's own renders are trusted (no cap, the owner's budget) but see what visitors see.
    const trusted = !anonymous || isInternal(c, lake)
    const client = clientOf(c).key
    const release = trusted ? () => {} : inFlight.acquire(client, maxAnonymousQueriesPerClient)
    if (!release)
      throw overCap(
        c,
        client,
        'query-cap',
        `More than ${maxAnonymousQueriesPerClient} anonymous queries in flight from this address`,
      )
    const started = performance.now()
    let result: string
    try {
      // The result arrives as JSON text (size-checked by the lake): splice it, don't re-serialize.
      result = await lake.queryJson(query, params, {
        perspective,
        authenticated: !anonymous,
        preview: identity?.preview === true,
        lane: trusted ? 'trusted' : 'anonymous',
        client,
      })
    } catch (error) {
      // A query refused for want of a worker (503) may be retried; say when.
      if (error instanceof LakeError && error.status === 503) c.header('retry-after', '5')
      throw error
    } finally {
      release()
    }
    const ms = Math.round(performance.now() - started)
    // The live-events tags this answer depends on (liveEvents.ts): coarse, so any change a
    // reader of this perspective could see means refetch.
    const drafts = !anonymous && perspective !== 'published'
    const syncTags = JSON.stringify(drafts ? [publicTag, draftsTag] : [publicTag])
    const body = `{${returnQuery ? `"query":${JSON.stringify(query)},` : ''}"result":${result},"syncTags":${syncTags},"ms":${ms}}`
    // Valid until the next commit: the revision, and which request this answers.
    const etag = `"${lake.revision}-${createHash('sha1').update(key).digest('base64url').slice(0, 16)}"`
    const answer = new CachedBody(Buffer.from(body), {etag, compress: false})
    if (anonymous) cache.set(key, answer)
    return respond(c, answer, anonymous, anonymous ? 'MISS' : 'BYPASS')
  }
  app.get('/:version/data/query/:dataset', handle)
  app.post('/:version/data/query/:dataset', handle)
}

/**
 * The answer through the one cached-body helper (ETag, 304). Never compressed here: most queries
 * come from the site's own renders over loopback, where compressing costs CPU and saves nothing;
 * a proxy in front compresses for browsers.
 */
function respond(
  c: Context,
  body: CachedBody,
  shared: boolean,
  cache: 'HIT' | 'MISS' | 'BYPASS',
): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    // As CDNs label it: whether our response cache answered (authenticated reads bypass it).
    'x-cache': cache,
    // Anonymous answers may sit in a CDN briefly; our own cache is invalidated on every commit.
    'cache-control': shared
      ? 'public, max-age=0, s-maxage=5, stale-while-revalidate=30'
      : 'private, no-store',
  }
  return body.respond({ifNoneMatch: c.req.header('if-none-match')}, 200, headers)
}
