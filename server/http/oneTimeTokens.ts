import {randomBytes} from 'node:crypto'

export interface OneTimeTokenOptions {
  /** How long a token may wait to be taken. */
  ttlMs: number
  /** Tokens waiting at once, at most; the oldest go first, so memory is bounded whatever clients do. */
  max: number
  /** Random bytes per token (base64url-encoded). */
  bytes: number
  now?: () => number
}

/**
 * Single-use, short-lived tokens kept in memory (the Studio login's `#sid=`, the contact
 * toast's `?sent=` marker): each is good once, within its lifetime. Insertion order is expiry
 * order, so issuing a token sweeps the expired ones from the front.
 */
export class OneTimeTokens {
  private readonly tokens = new Map<string, number>()
  private readonly options: Required<OneTimeTokenOptions>

  constructor(options: OneTimeTokenOptions) {
    this.options = {now: Date.now, ...options}
  }

  issue(): string {
    const now = this.options.now()
    for (const [token, expires] of this.tokens) {
      // Stop at the first live token once there is room: the rest are younger.
      if (expires > now && this.tokens.size < this.options.max) break
      this.tokens.delete(token)
    }
    const token = randomBytes(this.options.bytes).toString('base64url')
    this.tokens.set(token, now + this.options.ttlMs)
    return token
  }

  /** True the first time a live token is presented; false for any other string, ever after. */
  take(token: string): boolean {
    const expires = this.tokens.get(token)
    this.tokens.delete(token)
    return expires !== undefined && expires > this.options.now()
  }

  get size(): number {
    return this.tokens.size
  }
}
