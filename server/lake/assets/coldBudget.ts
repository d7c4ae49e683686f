import {RateLimiter} from '../../util/rateLimit.ts'

/**
 * Output pixels of cold transforms (variants in neither cache) each client may start per
 * minute. A transform's cost grows with its output: a 2560 × 1600 PNG took 1.4–2.4 s here where a
 * 500-px thumbnail takes about 20 ms, so counting requests let one client keep the single
 * transform slot busy with 40 large variants a minute (security review 3, M2). Weighted by
 * pixels, 60 MP a minute is 120 of the small variants a reader's page or the Studio's asset
 * browser asks for (each counted as at least `minColdPixels`), or 14 of the largest allowed.
 */
export const coldPixelsPerMinute = 60_000_000
/**
 * What the smallest cold transform counts for: decoding the source costs the same whatever the
 * output, so a flood of 1-px variants is not free.
 */
export const minColdPixels = 500_000

/**
 * Each client's cold transforms in any minute (a sliding window), counted in units of `minColdPixels` by the app's
 * one window counter (server/util/rateLimit.ts), in memory (one process; a restart only forgets).
 */
export class ColdTransformBudget {
  private readonly limiter: RateLimiter

  constructor(limit = coldPixelsPerMinute, now: () => number = Date.now) {
    this.limiter = new RateLimiter({limit: limit / minColdPixels, windowMs: 60_000, now})
  }

  /**
   * Counts one cold transform of `pixels` output pixels for `client`: 0 if allowed, else
   * seconds until enough of its minute has slid by (Retry-After).
   */
  take(client: string, pixels: number): number {
    return this.limiter.take(client, Math.max(minColdPixels, pixels) / minColdPixels)
  }
}
