import {hash, randomBytes} from 'node:crypto'

/** The UTC day of a time, `YYYY-MM-DD`: the unit visitors are unique in. */
export const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10)

/**
 * The secret of one UTC day that a visitor's hash is made with, as Plausible does it: random, in
 * memory only, replaced when the day changes. Yesterday's hashes cannot be recomputed from
 * anything kept, so no visitor can be followed from one day to the next, and none is ever
 * written or logged (docs/reader-statistics.md). A restart starts the day's uniques again.
 */
export class DailySalt {
  /** The current salt's day ends here (ms): one comparison per view, not a date to format. */
  private dayEnd = 0
  private salt = ''

  /**
   * A visitor of the day: sha256(salt, address, user agent), 22 characters of its base64 (132
   * bits: no two of a day's visitors collide). Held in memory for the day, to count each once.
   * One-shot `hash`, as every page view of a reader pays for it.
   */
  visitor(time: number, address: string, userAgent: string): string {
    if (time >= this.dayEnd || time < this.dayEnd - 86_400_000) {
      this.dayEnd = (Math.floor(time / 86_400_000) + 1) * 86_400_000
      this.salt = randomBytes(32).toString('hex')
    }
    return hash('sha256', `${this.salt}${address}\0${userAgent}`, 'base64').slice(0, 22)
  }
}
