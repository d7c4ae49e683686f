import type {Context} from 'hono'
import type {ClientErrorStatusCode, ServerErrorStatusCode} from 'hono/utils/http-status'

/** The statuses an HttpError may carry: Hono's registered 4xx and 5xx, each with a body. */
export type ErrorStatus = ClientErrorStatusCode | ServerErrorStatusCode

/**
 * An answer the client provoked (a bad token, a 413, a 429, a full disk), thrown from anywhere
 * in a request and answered by the app's one responder (errorResponse.ts), after hono's
 * HTTPException: the status, a message fit for the client, and how to write the body. The lake's
 * LakeError (server/lake/errors.ts) writes Sanity's JSON shape; this default writes the message
 * as plain text.
 */
export class HttpError extends Error {
  readonly status: number

  constructor(status: number, message: string, options?: ErrorOptions) {
    super(message, options)
    this.status = status
  }

  /** What kind of refusal this is, for the refusal log's per-kind summary (server/http/log.ts). */
  get kind(): string {
    return String(this.status)
  }

  /** The answer's body, with the headers already set on `c` (Retry-After). */
  respond(c: Context, status: ErrorStatus): Response {
    return c.text(this.message, status)
  }
}
