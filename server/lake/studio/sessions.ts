import {randomBytes} from 'node:crypto'

/** How long a login's `#sid=` may wait before the Studio exchanges it at /auth/fetch. */
export const sidLifetimeMs = 60_000

/**
 * Login session ids (`#sid=` in the redirect back to the Studio): single-use, short-lived, kept
 * in memory only. The session token is minted when the sid is redeemed, not before, so an
 * abandoned login leaves nothing behind.
 */
export class SidStore {
  private readonly sids = new Map<string, number>()
  private readonly now: () => number

  constructor(now: () => number = Date.now) {
    this.now = now
  }

  /** A new sid (≥ 20 characters, as the Studio's `/sid=([^&]{20,})/` expects). */
  issue(): string {
    this.sweep()
    const sid = randomBytes(24).toString('base64url')
    this.sids.set(sid, this.now() + sidLifetimeMs)
    return sid
  }

  /** True once for a live sid; the sid is gone afterwards either way. */
  redeem(sid: string): boolean {
    const expires = this.sids.get(sid)
    this.sids.delete(sid)
    return expires !== undefined && expires > this.now()
  }

  private sweep(): void {
    const now = this.now()
    for (const [sid, expires] of this.sids) if (expires <= now) this.sids.delete(sid)
  }
}

/**
 * Failed password attempts per client address in a sliding minute: after `limit` failures the
 * login form answers 429 until the window passes (a brute-force brake, not an account lock).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>()
  private readonly limit: number
  private readonly windowMs: number
  private readonly now: () => number

  constructor(limit = 10, windowMs = 60_000, now: () => number = Date.now) {
    this.limit = limit
    this.windowMs = windowMs
    this.now = now
  }

  blocked(client: string): boolean {
    return this.recent(client).length >= this.limit
  }

  fail(client: string): void {
    this.failures.set(client, [...this.recent(client), this.now()])
  }

  private recent(client: string): number[] {
    const since = this.now() - this.windowMs
    const kept = (this.failures.get(client) ?? []).filter((t) => t > since)
    if (kept.length === 0) this.failures.delete(client)
    else this.failures.set(client, kept)
    return kept
  }
}
