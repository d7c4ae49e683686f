import type {Context} from 'hono'
import {HttpError, type ErrorStatus} from '../http/httpError.ts'

/**
 * The app's HttpError answered in Sanity's JSON shape (`{error: {type, description, ...}}`) so
 * that @sanity/client builds clean ClientError/ServerError messages from the body.
 */
export class LakeError extends HttpError {
  readonly type: string
  readonly details: Record<string, unknown>

  constructor(
    status: number,
    type: string,
    description: string,
    details: Record<string, unknown> = {},
  ) {
    super(status, description)
    this.type = type
    this.details = details
  }

  toJSON(): {error: Record<string, unknown>} {
    return {error: {type: this.type, description: this.message, ...this.details}}
  }

  override get kind(): string {
    return `${this.status} ${this.type}`
  }

  override respond(c: Context, status: ErrorStatus): Response {
    return c.json(this.toJSON(), status)
  }
}

export const badRequest = (description: string, details?: Record<string, unknown>) =>
  new LakeError(400, 'httpBadRequest', description, details)

export const unauthorized = (description = 'Unauthorized - Session not found') =>
  new LakeError(401, 'httpUnauthorized', description)

export const forbidden = (description = 'Insufficient permissions') =>
  new LakeError(403, 'httpForbidden', description)

export const notFound = (description = 'Not found') =>
  new LakeError(404, 'httpNotFound', description)

/** A mutation that cannot be applied; Sanity answers these 409 with the failing mutation's items. */
export function mutationError(description: string, items: unknown[] = [], status = 409) {
  return new LakeError(status, 'mutationError', description, {items})
}

export function queryParseError(description: string, query: string, start?: number, end?: number) {
  return new LakeError(400, 'queryParseError', description, {start, end, query})
}

/**
 * The disk is full (HTTP 507, RFC 4918 §11.5): nothing of the request was stored, and the same
 * request succeeds once space is freed. The description names no path: it goes to anonymous
 * callers too (the contact form).
 */
export const insufficientStorage = () =>
  new LakeError(
    507,
    'insufficientStorage',
    'The server has no disk space left; nothing was stored. Try again once space is freed.',
  )
