import {OneTimeTokens} from '../../http/oneTimeTokens.ts'

/** How long a login's `#sid=` may wait before the Studio exchanges it at /auth/fetch. */
export const sidLifetimeMs = 60_000
/** Logins waiting for their exchange at once, at most: only the owner logs in, and only after the password. */
const maxPendingSids = 100

/**
 * Login session ids (`#sid=` in the redirect back to the Studio): single-use, short-lived, kept
 * in memory only. The session token is minted when the sid is redeemed, not before, so an
 * abandoned login leaves nothing behind.
 */
export class SidStore extends OneTimeTokens {
  constructor(now: () => number = Date.now) {
    // 24 bytes: at least 20 characters, as the Studio's `/sid=([^&]{20,})/` expects.
    super({ttlMs: sidLifetimeMs, max: maxPendingSids, bytes: 24, now})
  }

  /** True once for a live sid; the sid is gone afterwards either way. */
  redeem(sid: string): boolean {
    return this.take(sid)
  }
}
