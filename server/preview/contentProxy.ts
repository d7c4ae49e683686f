import type {Context, Hono} from 'hono'
import {previewContentPath} from '../../shared/siteConfig.ts'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {clientOf} from '../http/clientAddress.ts'
import {ClientCounter, overCap, LakeError, unauthorized} from '../lake/index.ts'
import {previewOf, type PreviewAccess} from './access.ts'
import {upstreamPathParts} from './upstreamPath.ts'

/** Largest POSTed query the proxy forwards (the lake's own limit for POSTed queries). */
const maxQueryBytes = 1024 * 1024
/** A preview page issues a handful of queries at once; more in flight from one session is a loop. */
const maxInFlightPerSession = 6
/** Longer than the lake's own budget for a trusted query (10 s), shorter than a browser's patience. */
const upstreamTimeoutMs = 15_000

/**
 * `{previewContentPath}/v{version}/data/query/{dataset}`: the browser's content reads in preview
 * mode (web/browserClient.ts). The preview cookie is checked here and the query forwarded with
 * the session's credential, always in the drafts perspective: to the lake (local mode), or to
 * sanity.io with the read token (hosted mode), which the browser never sees. Only queries pass.
 */
export function registerContentProxy(app: Hono, access: PreviewAccess): void {
  const inFlight = new ClientCounter()
  const handle = async (c: Context) => {
    const preview = previewOf(c, access)
    if (!preview) throw unauthorized('Unauthorized - not in preview mode')
    const {version, dataset} = upstreamPathParts(c)
    const {token, credential} = preview
    const release = inFlight.acquire(token, maxInFlightPerSession)
    if (!release)
      throw overCap(c, clientOf(c).key, 'preview-cap', 'Too many preview queries in flight')
    try {
      let body: Uint8Array<ArrayBuffer> | undefined
      if (c.req.method === 'POST') {
        try {
          body = await readBody(c.req.raw, maxQueryBytes)
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error
          throw new LakeError(413, 'requestEntityTooLarge', error.message)
        }
      }
      const incoming = new URL(c.req.url)
      const target = new URL(`/${version}/data/query/${dataset}`, access.upstream())
      target.search = incoming.search
      target.searchParams.set('perspective', 'drafts')
      const upstream = await fetch(target, {
        method: c.req.method,
        headers: {...credential, ...(body ? {'content-type': 'application/json'} : {})},
        ...(body ? {body} : {}),
        signal: AbortSignal.timeout(upstreamTimeoutMs),
        redirect: 'error',
      })
      // Streamed through, not held: a large draft result costs this process no memory.
      return new Response(upstream.body, {
        status: upstream.status,
        headers: {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
          'cache-control': 'private, no-store',
        },
      })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError')
        throw new LakeError(504, 'gatewayTimeout', 'The preview query took too long')
      // fetch() rejects with a TypeError when the upstream cannot be reached at all.
      if (error instanceof TypeError)
        throw new LakeError(502, 'badGateway', 'The content source could not be reached')
      throw error
    } finally {
      release()
    }
  }
  const path = `${previewContentPath}/:version/data/query/:dataset`
  app.get(path, handle)
  app.post(path, handle)
  registerLiveEventsProxy(app, access)
}

/** Live-event streams one preview session may hold (a tab or two of the preview). */
const maxStreamsPerSession = 2

/**
 * `{previewContentPath}/v{version}/data/live/events/{dataset}`: the lake's (or sanity.io's) live
 * events with drafts, for the preview page's refresh (web/preview/useLiveDrafts.ts), forwarded
 * with the session's credential and streamed through until either side ends. Upstream re-checks
 * the credential at each event, so the stream ends with the preview session.
 */
function registerLiveEventsProxy(app: Hono, access: PreviewAccess): void {
  const open = new ClientCounter()
  app.get(`${previewContentPath}/:version/data/live/events/:dataset`, async (c) => {
    const preview = previewOf(c, access)
    if (!preview) throw unauthorized('Unauthorized - not in preview mode')
    const {version, dataset} = upstreamPathParts(c)
    const {token, credential} = preview
    const release = open.acquire(token, maxStreamsPerSession)
    if (!release)
      throw overCap(c, clientOf(c).key, 'preview-live-cap', 'Too many preview event streams')
    const target = new URL(`/${version}/data/live/events/${dataset}`, access.upstream())
    target.searchParams.set('includeDrafts', 'true')
    const lastEventId = c.req.header('last-event-id')
    // The visitor leaving ends the upstream stream too.
    const abort = new AbortController()
    c.req.raw.signal.addEventListener('abort', () => {
      abort.abort()
      release()
    })
    // A time budget for the answer's headers only: the stream itself is meant to stay open.
    const waiting = setTimeout(() => abort.abort(), upstreamTimeoutMs)
    let upstream: Response
    try {
      upstream = await fetch(target, {
        headers: {...credential, ...(lastEventId ? {'last-event-id': lastEventId} : {})},
        signal: abort.signal,
        redirect: 'error',
      })
    } catch (error) {
      release()
      if (abort.signal.aborted && !c.req.raw.signal.aborted)
        throw new LakeError(504, 'gatewayTimeout', 'The content source did not answer in time')
      if (error instanceof TypeError)
        throw new LakeError(502, 'badGateway', 'The content source could not be reached')
      throw error
    } finally {
      clearTimeout(waiting)
    }
    if (!upstream.ok || !upstream.body) release()
    const body = upstream.body?.pipeThrough(new TransformStream({flush: release}))
    return new Response(body ?? null, {
      status: upstream.status,
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'text/event-stream',
        'cache-control': 'private, no-store',
      },
    })
  })
}
