import type {Context} from 'hono'
import type {ClientErrorStatusCode, ServerErrorStatusCode} from 'hono/utils/http-status'
import {LakeError} from '../errors.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {failureKind, failures, refusals, safe, withStack} from '../../http/log.ts'

/**
 * A LakeError's status is a 4xx or 5xx; Hono's union names the registered ones, and every error
 * status carries a body, which is all `c.json` needs. Anything else is a bug, answered 500.
 */
function isErrorStatus(status: number): status is ClientErrorStatusCode | ServerErrorStatusCode {
  return Number.isInteger(status) && status >= 400 && status <= 599
}

/**
 * The one error responder of the app (server/app.ts's onError) and of the lake's own early
 * answers: a LakeError in Sanity's JSON shape with its status, anything else a 500 that names
 * nothing internal. LakeErrors are answers the client provoked (a bad token, a 413, a 429, a full
 * disk), so they go through the refusal log: the first per client and kind each minute in full,
 * then a count, so a flood of bad requests cannot grow the log without bound. Headers set before
 * the throw (Retry-After) are kept: `c.json` sends the context's headers.
 */
export function errorResponse(error: unknown, c: Context): Response {
  const what = `${c.req.method} ${safe(c.req.path)}`
  if (error instanceof LakeError && isErrorStatus(error.status)) {
    const client = clientOf(c).key
    refusals.refuse(
      client,
      `${error.status} ${error.type}`,
      `[http] ${what} from ${client} → ${error.status} ${error.type}: ${safe(error.message)}`,
    )
    return c.json(error.toJSON(), error.status)
  }
  // A handler's bug: this request fails, the process keeps serving; the log says it once per
  // kind per minute, with a count of the rest.
  failures.refuse('*', `500 ${failureKind(error)}`, `[http] ${what} → 500 ${withStack(error)}`)
  return c.json({error: {type: 'internalServerError', description: 'Internal server error'}}, 500)
}
