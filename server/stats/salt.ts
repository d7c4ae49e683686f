import {hash, randomBytes} from 'node:crypto'

/** The UTC day of a time, `YYYY-MM-DD`: the unit visitors are unique in. */
export const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10)

/** Readers whose hash is remembered: a busy hour's; past it the memory starts over. */
const maxRecent = 4_096

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
   * The day's hashes of the readers seen lately, by user agent and then address: a reader's next
   * page is two lookups, not a hash. Keyed apart rather than by one string joining both, which
   * had to be built and hashed anew on every view; the user agent is the same string each time
   * (agents.ts remembers it), so its lookup reuses the hash V8 keeps on it. In memory only,
   * bounded, and forgotten with the salt.
   */
  private readonly recent = new Map<string, Map<string, string>>()
  private recentCount = 0

  /**
   * A visitor of the day: sha256(salt, address, user agent), 22 characters of its base64 (132
   * bits: no two of a day's visitors collide). Held in memory for the day, to count each once.
   */
  visitor(time: number, address: string, userAgent: string): string {
    if (time >= this.dayEnd || time < this.dayEnd - 86_400_000) {
      this.dayEnd = (Math.floor(time / 86_400_000) + 1) * 86_400_000
      this.salt = randomBytes(32).toString('hex')
      this.forget()
    }
    let byAddress = this.recent.get(userAgent)
    let visitor = byAddress?.get(address)
    if (visitor === undefined) {
      if (this.recentCount >= maxRecent) {
        this.forget()
        byAddress = undefined
      }
      if (!byAddress) this.recent.set(userAgent, (byAddress = new Map()))
      visitor = hash('sha256', `${this.salt}${address}\0${userAgent}`, 'base64').slice(0, 22)
      byAddress.set(address, visitor)
      this.recentCount++
    }
    return visitor
  }

  private forget(): void {
    this.recent.clear()
    this.recentCount = 0
  }
}
