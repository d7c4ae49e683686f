import type {Context, Hono} from 'hono'
import {previewContentPath} from '../../web/env.ts'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {clientOf} from '../http/clientAddress.ts'
import {ClientCounter, overCap} from '../lake/api/clientCaps.ts'
import {LakeError, unauthorized} from '../lake/errors.ts'
import type {PreviewAccess} from './access.ts'
import {presentedPreviewToken} from './cookie.ts'

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
    const token = presentedPreviewToken(c)
    const credential = token ? access.credential(token) : undefined
    if (!token || !credential) throw unauthorized('Unauthorized - not in preview mode')
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
      const target = new URL(
        `/${c.req.param('version')}/data/query/${c.req.param('dataset')}`,
        access.upstream(),
      )
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
}
