import type {Context} from 'hono'
import {clientOf} from './clientAddress.ts'
import {HttpError, type ErrorStatus} from './httpError.ts'
import {failureKind, failures, refusals, safe, withStack} from './log.ts'

/**
 * An HttpError's status is a 4xx or 5xx; Hono's union names the registered ones, and every error
 * status carries a body, which is all `c.json` needs. Anything else is a bug, answered 500.
 */
function isErrorStatus(status: number): status is ErrorStatus {
  return Number.isInteger(status) && status >= 400 && status <= 599
}

/**
 * The one error responder of the app (server/app.ts's onError) and of early answers (the lake's
 * version check, the Studio's CORS): an HttpError with its status, in its own body (a LakeError
 * in Sanity's JSON shape), anything else a 500 that names nothing internal. HttpErrors are
 * answers the client provoked (a bad token, a 413, a 429, a full disk), so they go through the
 * refusal log: the first per client and kind each minute in full, then a count, so a flood of bad
 * requests cannot grow the log without bound. Headers set before the throw (Retry-After) are
 * kept: `c.json` sends the context's headers.
 */
export function errorResponse(error: unknown, c: Context): Response {
  const what = `${c.req.method} ${safe(c.req.path)}`
  if (error instanceof HttpError && isErrorStatus(error.status)) {
    const client = clientOf(c).key
    const message = `[http] ${what} from ${client} → ${error.kind}: ${safe(error.message)}`
    refusals.refuse(client, error.kind, message)
    return error.respond(c, error.status)
  }
  // A handler's bug: this request fails, the process keeps serving; the log says it once per
  // kind per minute, with a count of the rest (security review 2, finding 5). Its body keeps the
  // shape every error of the lake's API has, since most of what the app serves at the root is
  // that API.
  failures.refuse('*', `500 ${failureKind(error)}`, `[http] ${what} → 500 ${withStack(error)}`)
  return c.json({error: {type: 'internalServerError', description: 'Internal server error'}}, 500)
}
