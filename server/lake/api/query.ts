import {createHash} from 'node:crypto'
import type {Context, Hono} from 'hono'
import type {QueryCache} from './queryCache.ts'
import {badRequest} from '../errors.ts'
import {
  apiVersionOf,
  checkDataset,
  flag,
  identify,
  queryParams,
  readJsonBody,
} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import {defaultPerspective, parsePerspective, type Perspective} from '../perspective.ts'
import {LakeError} from '../errors.ts'
import {maxAnonymousQueriesPerClient} from '../queryPool/queryBudgets.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {ClientCounter, overCap} from './clientCaps.ts'
import {isInternal} from './internal.ts'
import {CachedBody} from '../../http/cachedBody.ts'
import {draftsTag} from '../events/syncTags.ts'
import {isRecord} from '../../util/isRecord.ts'
import {
  AnonymousBodies,
  maxAnonymousQueryBodyBytes,
  maxTrustedQueryBodyBytes,
} from './queryBodies.ts'

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

/** Who asks, as known from the request's head, before its body is read. */
export interface Asker {
  perspective: Perspective
  anonymous: boolean
  /** The owner or the site's own render: no per-client cap. */
  trusted: boolean
  client: string
  preview: boolean
}

/** What is asked: the query, its params, and the cache key of the answer. */
export interface Asked {
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
  return asked(query, params, perspective, flag(c, 'returnQuery', true))
}

/** What is asked, keyed by everything its answer depends on. */
export function asked(
  query: string,
  params: Record<string, unknown>,
  perspective: Perspective,
  returnQuery: boolean,
): Asked {
  const key = `${String(perspective)}\u0000${returnQuery}\u0000${JSON.stringify([query, params])}`
  return {query, params, key, returnQuery}
}

/** An answer's body, as sent, and whether the response cache held it (as `x-cache` says). */
export interface QueryAnswer {
  body: CachedBody
  cache: 'HIT' | 'MISS' | 'BYPASS'
}

export type AnswerQuery = (asked: Asked, asker: Asker) => Promise<QueryAnswer>

/**
 * The query API's answer once the request is read: from the response cache for anonymous
 * readers, else evaluated on the query pool in the asker's lane, with its sync tags. The HTTP
 * route below and the site's reads in this process (siteQuery.ts) both answer through it.
 */
export function queryAnswerer(lake: Lake, cache: QueryCache): AnswerQuery {
  return async (
    {query, params, key, returnQuery},
    {perspective, anonymous, trusted, client, preview},
  ) => {
    if (anonymous) {
      const hit = cache.get(key)
      if (hit) return {body: hit, cache: 'HIT'}
    }
    const generation = cache.generation
    const started = performance.now()
    // The result arrives as JSON text (size-checked by the lake): splice it, don't re-serialize.
    // Its live-events tags (../syncTags.ts) come with it: what it reads, by type.
    const {json: result, tags} = await lake.queryAnswer(query, params, {
      perspective,
      authenticated: !anonymous,
      preview,
      lane: trusted ? 'trusted' : 'anonymous',
      client,
    })
    const ms = Math.round(performance.now() - started)
    // A reader of drafts or versions also depends on any change of those.
    const drafts = !anonymous && perspective !== 'published'
    const syncTags = JSON.stringify(drafts ? [...tags, draftsTag].sort() : tags)
    const body = `{${returnQuery ? `"query":${JSON.stringify(query)},` : ''}"result":${result},"syncTags":${syncTags},"ms":${ms}}`
    // A visitor's: what the answer says, so it moves only when the answer does and tells no
    // outsider of private commits (security review 3, I1). The owner's: valid until the next
    // commit (the revision, and which request this answers), without hashing large answers.
    const etag = anonymous
      ? `"${createHash('sha1').update(result).update(syncTags).digest('base64url').slice(0, 27)}"`
      : `"${lake.revision}-${createHash('sha1').update(key).digest('base64url').slice(0, 16)}"`
    const answer = new CachedBody(Buffer.from(body), {etag, compress: false})
    if (anonymous) cache.set(key, answer, generation)
    return {body: answer, cache: anonymous ? 'MISS' : 'BYPASS'}
  }
}

/** GET|POST /v{version}/data/query/{dataset} */
export function registerQuery(
  app: Hono,
  lake: Lake,
  cache: QueryCache,
  answerQuery: AnswerQuery,
): void {
  const inFlight = new ClientCounter()
  const anonymousBodies = new AnonymousBodies()
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
    if (asker.trusted) return askedInJson(c, asker, await readJsonBody(c, maxTrustedQueryBodyBytes))
    // A visitor's body is small, and only so many are read and parsed at once (queryBodies.ts).
    const leave = anonymousBodies.enter(c)
    try {
      return askedInJson(c, asker, await readJsonBody(c, maxAnonymousQueryBodyBytes))
    } finally {
      leave()
    }
  }
  const askedInJson = (c: Context, asker: Asker, body: Record<string, unknown>): Asked => {
    const params = body.params ?? {}
    if (!isRecord(params)) throw badRequest('"params" must be an object')
    return askedIn(c, params, asker, body.query)
  }
  const answer = async (c: Context, asked: Asked, asker: Asker): Promise<Response> => {
    try {
      const {body, cache: status} = await answerQuery(asked, asker)
      return respond(c, body, asker.anonymous, status)
    } catch (error) {
      // A query refused for want of a worker (503) may be retried; say when.
      if (error instanceof LakeError && error.status === 503) c.header('retry-after', '5')
      throw error
    }
  }
  app.get('/:version/data/query/:dataset', handle)
  app.post('/:version/data/query/:dataset', handle)
}

/**
 * The answer through the one cached-body helper (ETag, 304). Never compressed here: most queries
 * come from site processes' renders on the same network, where compressing costs CPU and saves
 * nothing (a process's own renders read in process: siteQuery.ts); a proxy in front compresses
 * for browsers.
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
