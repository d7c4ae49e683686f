/**
 * Failed token attempts per client: a brake on guessing and on the work and log lines wrong
 * tokens cost. A right token is accepted even from a throttled client (server/lake/auth.ts), so
 * the odds of a guess rest on the token itself (server/util/tokenStrength.ts). One instance
 * counts every surface that takes a token — the login page, bearer requests, the presence
 * socket — so a guesser cannot add budgets up.
 */

/**
 * Failures a client may make in one window before it is refused. Ten is far more than an owner
 * mistyping a password makes, and far too few for guessing: 10 per 10 min is 1,440 a day.
 */
export const maxFailedAttempts = 10

/**
 * How far back failures count, and so how long a refused client waits at most. Long enough
 * that guessing stays slow, short enough that a locked-out owner only waits for a coffee.
 */
export const failedAttemptWindowMs = 10 * 60_000

/**
 * Clients remembered at once (in memory only: rate-limit state is never persisted). Each costs
 * at most `maxFailedAttempts` numbers; at the cap the oldest client is forgotten first.
 */
export const maxTrackedClients = 10_000

export interface FailedAttemptsOptions {
  limit?: number
  windowMs?: number
  maxClients?: number
  now?: () => number
}

/**
 * A sliding window of failure times per client key (`clientOf(c).key`, already truncated to a
 * /24 or /48). Keys are per client, never global, so an attacker elsewhere cannot lock the owner
 * out; the check runs before the token is compared, so a refused client learns nothing.
 */
export class FailedAttempts {
  private readonly failures = new Map<string, number[]>()
  private readonly limit: number
  private readonly windowMs: number
  private readonly maxClients: number
  private readonly now: () => number

  constructor(options: FailedAttemptsOptions = {}) {
    this.limit = options.limit ?? maxFailedAttempts
    this.windowMs = options.windowMs ?? failedAttemptWindowMs
    this.maxClients = options.maxClients ?? maxTrackedClients
    this.now = options.now ?? Date.now
  }

  /** Milliseconds until `client` may try again; 0 when it may try now. */
  retryAfterMs(client: string): number {
    const recent = this.recent(client)
    if (recent.length < this.limit) return 0
    return recent[recent.length - this.limit] + this.windowMs - this.now()
  }

  fail(client: string): void {
    const recent = this.recent(client)
    recent.push(this.now())
    // Only the newest `limit` failures decide when the client may try again.
    if (recent.length > this.limit) recent.splice(0, recent.length - this.limit)
    this.failures.delete(client)
    if (this.failures.size >= this.maxClients) this.evict()
    this.failures.set(client, recent)
  }

  /** Clients currently remembered (for tests of the memory bound). */
  get size(): number {
    return this.failures.size
  }

  private recent(client: string): number[] {
    const since = this.now() - this.windowMs
    const kept = (this.failures.get(client) ?? []).filter((t) => t > since)
    if (kept.length === 0) this.failures.delete(client)
    else this.failures.set(client, kept)
    return kept
  }

  /** Drops clients whose failures all expired, then, if still full, the least recent one. */
  private evict(): void {
    const since = this.now() - this.windowMs
    for (const [client, times] of this.failures) {
      if (times[times.length - 1] <= since) this.failures.delete(client)
    }
    if (this.failures.size < this.maxClients) return
    const oldest = this.failures.keys().next()
    if (!oldest.done) this.failures.delete(oldest.value)
  }
}
