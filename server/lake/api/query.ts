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
import {anyTag, draftsTag, queryTags, refTag} from '../syncTags.ts'
import {parseQuery} from '../groq.ts'
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

/** Queries (with their params) longer than this are not parsed for their tags on the main thread. */
const maxTaggedQueryChars = 16_384

/** Who asks, as known from the request's head, before its body is read. */
interface Asker {
  perspective: Perspective
  anonymous: boolean
  /** The owner or the site's own render: no per-client cap. */
  trusted: boolean
  client: string
  preview: boolean
}

/** What is asked: the query, its params, and the cache key of the answer. */
interface Asked {
  query: string
  params: Record<string, unknown>
  key: string
  returnQuery: boolean
}

function askedIn(
  c: Context,
  params: Record<string, unknown>,
  {perspective}: Asker,
  query: unknown = c.req.query('query'),
): Asked {
  if (typeof query !== 'string' || query.trim() === '') throw badRequest('Missing "query"')
  const returnQuery = flag(c, 'returnQuery', true)
  const key = `${String(perspective)}\u0000${returnQuery}\u0000${JSON.stringify([query, params])}`
  return {query, params, key, returnQuery}
}

/** GET|POST /v{version}/data/query/{dataset} */
export function registerQuery(app: Hono, lake: Lake, cache: QueryCache): void {
  const inFlight = new ClientCounter()
  const handle = async (c: Context) => {
    checkDataset(c, lake)
    const identity = identify(c, lake)
    const asker: Asker = {
      perspective: perspectiveOf(c),
      anonymous: identity === undefined,
      // The site's own renders are trusted (no cap, the owner's budget) but see what visitors see.
      trusted: identity !== undefined || isInternal(c, lake),
      client: clientOf(c).key,
      preview: identity?.preview === true,
    }
    // A GET's query is in its head, already read: a cached answer needs no slot.
    const asked = c.req.method === 'POST' ? undefined : askedIn(c, queryParams(c), asker)
    const hit = asked && asker.anonymous ? cache.get(asked.key) : undefined
    if (hit) return respond(c, hit, true, 'HIT')
    // A POST's slot is taken before its body is read: reading and parsing is work too, and 32
    // bodies at once from one address stalled every page (security review 2, finding 1).
    const release = asker.trusted
      ? () => {}
      : inFlight.acquire(asker.client, maxAnonymousQueriesPerClient)
    if (!release)
      throw overCap(
        c,
        asker.client,
        'query-cap',
        `More than ${maxAnonymousQueriesPerClient} anonymous queries in flight from this address`,
      )
    try {
      return await answer(c, asked ?? (await askedInBody(c, asker)), asker)
    } finally {
      release()
    }
  }
  const askedInBody = async (c: Context, asker: Asker): Promise<Asked> => {
    const body = await readJsonBody(c, 1024 * 1024)
    const params = body.params ?? {}
    if (!isRecord(params)) throw badRequest('"params" must be an object')
    return askedIn(c, params, asker, body.query)
  }
  const answer = async (
    c: Context,
    {query, params, key, returnQuery}: Asked,
    {perspective, anonymous, trusted, client, preview}: Asker,
  ): Promise<Response> => {
    if (anonymous) {
      const hit = cache.get(key)
      if (hit) return respond(c, hit, true, 'HIT')
    }
    const started = performance.now()
    let result: string
    try {
      // The result arrives as JSON text (size-checked by the lake): splice it, don't re-serialize.
      result = await lake.queryJson(query, params, {
        perspective,
        authenticated: !anonymous,
        preview,
        lane: trusted ? 'trusted' : 'anonymous',
        client,
      })
    } catch (error) {
      // A query refused for want of a worker (503) may be retried; say when.
      if (error instanceof LakeError && error.status === 503) c.header('retry-after', '5')
      throw error
    }
    const ms = Math.round(performance.now() - started)
    // The live-events tags this answer depends on (../syncTags.ts): what it reads, by type; a
    // reader of drafts or versions also any change of those.
    const drafts = !anonymous && perspective !== 'published'
    // Parsed again here (groq.ts caches the tree) unless huge: a huge query's parse on the main
    // thread would stall every request, so it gets the tags that fire on any change.
    const tags =
      query.length + JSON.stringify(params).length <= maxTaggedQueryChars
        ? queryTags(parseQuery(query, params))
        : [anyTag, refTag]
    const syncTags = JSON.stringify(drafts ? [...tags, draftsTag].sort() : tags)
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
