export interface RateLimitOptions {
  /** What a client may spend within `windowMs`: messages, searches, or weighted work. */
  limit?: number
  windowMs?: number
  /** Injectable clock (ms since epoch) so tests need not wait ten minutes. */
  now?: () => number
  /** Bound on remembered clients, so a flood of addresses cannot grow memory without end. */
  maxClients?: number
}

/** Issue #5: 5 messages per 10 minutes per IP address. */
export const defaultRateLimit = {limit: 5, windowMs: 10 * 60_000} as const

/**
 * The app's one per-client window counter (the contact relay, subscriptions, searches, the lake's
 * cold image transforms): a sliding window per client key, in memory. Each process keeps its own
 * (docs/architecture.md), and a restart forgetting the counts only ever lets people through. A
 * take may cost more than 1 (a large image variant), so the window holds what was spent when.
 */
export class RateLimiter {
  readonly limit: number
  readonly windowMs: number
  private readonly now: () => number
  private readonly maxClients: number
  /**
   * Client → what it spent when, oldest first: pairs of [time, cost]. Map order = least recently
   * seen first. Each entry costs at least 1, so a client holds at most `limit` entries.
   */
  private readonly hits = new Map<string, Array<[number, number]>>()

  constructor(options: RateLimitOptions = {}) {
    this.limit = options.limit ?? defaultRateLimit.limit
    this.windowMs = options.windowMs ?? defaultRateLimit.windowMs
    this.now = options.now ?? Date.now
    this.maxClients = options.maxClients ?? 10_000
  }

  private recent(client: string, now: number): Array<[number, number]> {
    const spent = (this.hits.get(client) ?? []).filter(([time]) => time > now - this.windowMs)
    this.hits.delete(client)
    if (spent.length > 0) this.hits.set(client, spent)
    return spent
  }

  /**
   * Counts `cost` (at least 1) for `client` if it stays within the limit. Returns 0 when allowed,
   * or the number of seconds until enough of the window has slid by (for Retry-After).
   */
  take(client: string, cost = 1): number {
    const now = this.now()
    const price = Math.min(Math.max(1, cost), this.limit)
    const spent = this.recent(client, now)
    let total = spent.reduce((sum, [, paid]) => sum + paid, 0)
    if (total + price > this.limit) {
      let freedAt = now
      for (const [time, paid] of spent) {
        total -= paid
        freedAt = time + this.windowMs
        if (total + price <= this.limit) break
      }
      return Math.max(1, Math.ceil((freedAt - now) / 1000))
    }
    spent.push([now, price])
    this.hits.set(client, spent)
    while (this.hits.size > this.maxClients) {
      const oldest = this.hits.keys().next().value
      if (oldest === undefined) break
      this.hits.delete(oldest)
    }
    return 0
  }
}
