import {createHash, randomBytes} from 'node:crypto'

/** The UTC day of a time, `YYYY-MM-DD`: the unit visitors are unique in. */
export const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10)

/**
 * The secret of one UTC day that a visitor's hash is made with, as Plausible does it: random, in
 * memory only, replaced when the day changes. Yesterday's hashes cannot be recomputed from
 * anything kept, so no visitor can be followed from one day to the next, and none is ever
 * written or logged (docs/reader-statistics.md). A restart starts the day's uniques again.
 */
export class DailySalt {
  private day = ''
  private salt = Buffer.alloc(0)

  /**
   * A visitor of the day: sha256(salt, address, user agent), 16 bytes in base64 (128 bits:
   * no two of a day's visitors collide). Held in memory for the day, to count each once.
   */
  visitor(time: number, address: string, userAgent: string): string {
    const day = utcDay(time)
    if (day !== this.day) {
      this.day = day
      this.salt = randomBytes(32)
    }
    return createHash('sha256')
      .update(this.salt)
      .update(address)
      .update('\0')
      .update(userAgent)
      .digest()
      .subarray(0, 16)
      .toString('base64')
  }
}
