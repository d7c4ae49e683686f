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
