export interface RateLimitOptions {
  /** Messages allowed per client within `windowMs`. */
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
 * A sliding-window counter per client address, in memory: the relay is one process
 * (docs/architecture.md), and a restart forgetting the counts only ever lets people through.
 */
export class RateLimiter {
  readonly limit: number
  readonly windowMs: number
  private readonly now: () => number
  private readonly maxClients: number
  /** Client → times of its recent messages, oldest first; Map order = least recently seen first. */
  private readonly hits = new Map<string, number[]>()

  constructor(options: RateLimitOptions = {}) {
    this.limit = options.limit ?? defaultRateLimit.limit
    this.windowMs = options.windowMs ?? defaultRateLimit.windowMs
    this.now = options.now ?? Date.now
    this.maxClients = options.maxClients ?? 10_000
  }

  private recent(client: string, now: number): number[] {
    const times = (this.hits.get(client) ?? []).filter((t) => t > now - this.windowMs)
    this.hits.delete(client)
    if (times.length > 0) this.hits.set(client, times)
    return times
  }

  /**
   * Counts one message from `client` if it is under the limit. Returns 0 when allowed, or the
   * number of seconds until it may send again (for Retry-After).
   */
  take(client: string): number {
    const now = this.now()
    const times = this.recent(client, now)
    if (times.length >= this.limit)
      return Math.max(1, Math.ceil((times[0] + this.windowMs - now) / 1000))
    times.push(now)
    this.hits.set(client, times)
    while (this.hits.size > this.maxClients) {
      const oldest = this.hits.keys().next().value
      if (oldest === undefined) break
      this.hits.delete(oldest)
    }
    return 0
  }
}
