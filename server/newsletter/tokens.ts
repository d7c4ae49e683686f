import {createHmac, timingSafeEqual} from 'node:crypto'

/**
 * Signed links: `<payload>.<signature>`, the payload base64url JSON, the signature an HMAC-SHA256
 * over the purpose and the payload with the newsletter's secret (server/newsletter/secret.ts).
 * A confirmation token carries the subscriber, a one-time nonce and an expiry; an unsubscribe
 * token carries the subscriber only (it must work from any mail, however old).
 */
export type TokenPurpose = 'confirm' | 'unsubscribe'

export interface TokenClaims {
  /** The subscriber's id (server/newsletter/subscribers.ts). */
  sub: string
  /** Confirmation only: matches the pending subscriber's nonce until it is used. */
  nonce?: string
  /** Confirmation only: ms since the epoch after which the link no longer works. */
  exp?: number
}

/** Longer than any token this server makes: anything longer is refused unread. */
export const maxTokenLength = 400

function signature(secret: Buffer, purpose: TokenPurpose, payload: string): Buffer {
  return createHmac('sha256', secret).update(`${purpose}\0${payload}`).digest()
}

export function signToken(secret: Buffer, purpose: TokenPurpose, claims: TokenClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url')
  return `${payload}.${signature(secret, purpose, payload).toString('base64url')}`
}

export type TokenCheck =
  {ok: true; claims: TokenClaims} | {ok: false; reason: 'malformed' | 'forged' | 'expired'}

/** Checks a token's shape, signature (in constant time) and expiry. */
export function verifyToken(
  secret: Buffer,
  purpose: TokenPurpose,
  token: string | undefined,
  now: number,
): TokenCheck {
  if (!token || token.length > maxTokenLength) return {ok: false, reason: 'malformed'}
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token)
  if (!match) return {ok: false, reason: 'malformed'}
  const [, payload, given] = match
  const expected = signature(secret, purpose, payload)
  const presented = Buffer.from(given, 'base64url')
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
    return {ok: false, reason: 'forged'}
  let claims: unknown
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return {ok: false, reason: 'malformed'}
  }
  if (!isClaims(claims)) return {ok: false, reason: 'malformed'}
  if (claims.exp !== undefined && now > claims.exp) return {ok: false, reason: 'expired'}
  return {ok: true, claims}
}

function isClaims(value: unknown): value is TokenClaims {
  if (typeof value !== 'object' || value === null) return false
  const v: Record<string, unknown> = {...value}
  return (
    typeof v.sub === 'string' &&
    (v.nonce === undefined || typeof v.nonce === 'string') &&
    (v.exp === undefined || typeof v.exp === 'number')
  )
}
