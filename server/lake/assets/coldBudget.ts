/**
 * Output pixels of cold transforms (variants in neither cache) each client may start per
 * minute. A transform's cost grows with its output: a 2560 × 1600 PNG took 1.4–2.4 s here where a
 * 500-px thumbnail takes about 20 ms, so counting requests let one client keep the single
 * transform slot busy with 40 large variants a minute (security review 3, M2). Weighted by
 * pixels, 60 MP a minute is 120 of the small variants a reader's page or the Studio's asset
 * browser asks for (each counted as at least `minColdPixels`), or 15 of the largest allowed.
 */
export const coldPixelsPerMinute = 60_000_000
/**
 * What the smallest cold transform counts for: decoding the source costs the same whatever the
 * output, so a flood of 1-px variants is not free.
 */
export const minColdPixels = 500_000

/** Clients remembered at once, so a flood of addresses cannot grow memory without end. */
const maxClients = 10_000

/** A fixed one-minute window per client, in memory (one process; a restart only forgets). */
export class ColdTransformBudget {
  private readonly windows = new Map<string, {start: number; spent: number}>()
  private readonly limit: number
  private readonly now: () => number

  constructor(limit = coldPixelsPerMinute, now: () => number = Date.now) {
    this.limit = limit
    this.now = now
  }

  /**
   * Counts one cold transform of `pixels` output pixels for `client`: 0 if allowed, else
   * seconds until it may (Retry-After). A transform is allowed while the client's minute has
   * budget left, so one larger than what is left still runs, and the next waits.
   */
  take(client: string, pixels: number): number {
    const now = this.now()
    let window = this.windows.get(client)
    if (!window || now - window.start >= 60_000) window = {start: now, spent: 0}
    if (window.spent >= this.limit)
      return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000))
    window.spent += Math.max(minColdPixels, pixels)
    this.windows.delete(client)
    this.windows.set(client, window)
    for (const oldest of this.windows.keys()) {
      if (this.windows.size <= maxClients) break
      this.windows.delete(oldest)
    }
    return 0
  }
}
