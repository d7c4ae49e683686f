import type {Context} from 'hono'
import {bearerToken} from '../auth.ts'
import type {Identity} from '../identity.ts'
import {badRequest, forbidden, LakeError, notFound, unauthorized} from '../errors.ts'

import type {Lake} from '../lake.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {refusals, safe} from '../../http/log.ts'
import {BodyTooLargeError, readBody} from '../../http/body.ts'
import {messageOf} from '../../util/messageOf.ts'
import {isRecord} from '../../util/isRecord.ts'
import {authOf} from '../lake.ts'
import {jsonDepth, maxJsonDepth} from './jsonDepth.ts'

/** Largest JSON body the lake reads (mutations, actions, POSTed queries). */
export const maxBodyBytes = 10 * 1024 * 1024

/**
 * The caller's identity, or undefined for anonymous; a wrong token is a 401, never anonymous.
 * Wrong tokens count against the client (server/util/failedAttempts.ts): past the limit a wrong
 * one gets 429 with Retry-After, and it reached here at the pace of tokenPace.ts.
 */
export function identify(c: Context, lake: Lake): Identity | undefined {
  const token = bearerToken(c.req.header('authorization'))
  if (token === undefined) return undefined
  const client = clientOf(c).key
  const verdict = authOf(lake).authenticate(token, client)
  if (verdict.ok) return verdict.identity
  const what = `${c.req.method} ${safe(c.req.path)}`
  if (verdict.throttled) throw tooManyGuesses(c, client, verdict.retryAfterSeconds)
  refusals.refuse(
    client,
    'token-invalid',
    `[auth] 401 ${what} from ${client}: wrong or expired token`,
  )
  throw unauthorized('Unauthorized - Session does not match project host or has expired')
}

/** The 429 of a client over its failed-token limit: Retry-After set, the refusal logged. */
export function tooManyGuesses(c: Context, client: string, retryAfterSeconds: number): LakeError {
  refusals.refuse(
    client,
    'token-throttled',
    `[auth] 429 ${c.req.method} ${safe(c.req.path)} from ${client}: too many wrong tokens`,
  )
  c.header('retry-after', String(retryAfterSeconds))
  return new LakeError(
    429,
    'tooManyRequests',
    `Too many failed token attempts from this address; retry in ${retryAfterSeconds} s`,
  )
}

/**
 * The owner's identity, for everything beyond reading published content and drafts: a preview
 * session (server/lake/sessions/previewSessions.ts) is read-only, so it gets 403 here.
 */
export function requireIdentity(c: Context, lake: Lake): Identity {
  const identity = identify(c, lake)
  if (!identity) throw unauthorized('Unauthorized - a token is required for this request')
  if (identity.preview) throw forbidden('A preview session is read-only')
  return identity
}

export function checkDataset(c: Context, lake: Lake): void {
  const dataset = c.req.param('dataset')
  if (dataset !== lake.dataset) throw notFound(`Dataset "${dataset}" not found`)
}

/** `/v2023-07-29/...` → `2023-07-29`; `/v1/...` → `1`; `/vX/...` → `X`. */
export function apiVersionOf(c: Context): string {
  return (c.req.param('version') ?? 'v1').replace(/^v/, '')
}

/**
 * Reads a JSON object body, capped while it streams (server/http/body.ts); bad JSON is a 400,
 * an oversize body a 413 before more than `limit` bytes are held, and a body nested past
 * `maxJsonDepth` a 400 before it is parsed (jsonDepth.ts).
 */
export async function readJsonBody(
  c: Context,
  limit = maxBodyBytes,
): Promise<Record<string, unknown>> {
  let buffer: Uint8Array
  try {
    buffer = await readBody(c.req.raw, limit)
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error
    throw new LakeError(413, 'requestEntityTooLarge', error.message)
  }
  const text = new TextDecoder().decode(buffer)
  if (jsonDepth(text) > maxJsonDepth)
    throw badRequest(`Body is nested deeper than ${maxJsonDepth} levels`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    throw badRequest(`Body is not valid JSON: ${messageOf(error)}`)
  }
  if (!isRecord(body)) throw badRequest('Body must be a JSON object')
  return body
}

/** Boolean query-string flags as @sanity/client sends them (`true`/`false`, or bare). */
export function flag(c: Context, name: string, fallback = false): boolean {
  const value = c.req.query(name)
  if (value === undefined) return fallback
  return value === '' || value === 'true' || value === '1'
}

/** `$name=<JSON>` query-string parameters, as @sanity/client encodes them (query and listen). */
export function queryParams(c: Context): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const [key, value] of new URL(c.req.url).searchParams) {
    if (!key.startsWith('$')) continue
    if (jsonDepth(value) > maxJsonDepth)
      throw badRequest(`Parameter "${key}" is nested deeper than ${maxJsonDepth} levels`)
    try {
      params[key.slice(1)] = JSON.parse(value)
    } catch {
      throw badRequest(`Parameter "${key}" is not valid JSON`)
    }
  }
  return params
}
