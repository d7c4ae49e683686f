/**
 * Cold transforms (variants in neither cache) each client may start per minute. A reader's page
 * asks for one variant per image; the Studio's asset browser for a few dozen thumbnails. A flood
 * of distinct variant URLs from one address (`?w=1`, `?w=2`, …) is a stream of cold transforms
 * that the queue's in-flight cap alone does not stop: past this it gets 429s.
 */
export const coldTransformsPerMinute = 120

/** Clients remembered at once, so a flood of addresses cannot grow memory without end. */
const maxClients = 10_000

/** A fixed one-minute window per client, in memory (one process; a restart only forgets). */
export class ColdTransformBudget {
  private readonly windows = new Map<string, {start: number; count: number}>()
  private readonly limit: number
  private readonly now: () => number

  constructor(limit = coldTransformsPerMinute, now: () => number = Date.now) {
    this.limit = limit
    this.now = now
  }

  /** Counts one cold transform for `client`: 0 if allowed, else seconds until it may (Retry-After). */
  take(client: string): number {
    const now = this.now()
    let window = this.windows.get(client)
    if (!window || now - window.start >= 60_000) window = {start: now, count: 0}
    if (window.count >= this.limit)
      return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000))
    window.count++
    this.windows.delete(client)
    this.windows.set(client, window)
    for (const oldest of this.windows.keys()) {
      if (this.windows.size <= maxClients) break
      this.windows.delete(oldest)
    }
    return 0
  }
}
