import type {Context} from 'hono'
import type {FailedAttempts} from '../util/failedAttempts.ts'
import {clientOf} from './clientAddress.ts'

/** The lake's answer to a token (server/lake/identity.ts), as much of it as the check needs. */
type Verify = (token: string | undefined) => {preview?: true} | undefined

/** The bearer token of an `Authorization: Bearer …` header. */
export const bearerOf = (c: Context): string | undefined =>
  /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]

/**
 * Whether a request carries the owner's token or a Studio session as its bearer token (the
 * owner's downloads: `/api/subscribers.csv`, `/api/stats/…`). A preview session only reads
 * drafts, so it is not the owner here.
 */
export function isOwnerBearer(c: Context, verify: Verify): boolean {
  const identity = verify(bearerOf(c))
  return identity !== undefined && identity.preview !== true
}

/**
 * `isOwnerBearer` behind the lake's per-client count of wrong tokens (server/util/failedAttempts.ts):
 * a client that guessed wrong too often is told to wait before its token is even looked at.
 * Returns the seconds to wait, 0 for the owner, or undefined for anyone else (counted).
 */
export function ownerOrWait(
  c: Context,
  verify: Verify,
  attempts: FailedAttempts,
): number | undefined {
  const client = clientOf(c).key
  const wait = attempts.retryAfterMs(client)
  if (wait > 0) return Math.ceil(wait / 1000)
  if (isOwnerBearer(c, verify)) return 0
  if (bearerOf(c) !== undefined) attempts.fail(client)
  return undefined
}
