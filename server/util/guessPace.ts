import {setTimeout as sleep} from 'node:timers/promises'

/**
 * How long a wrong token from a client over its failed-attempt limit (failedAttempts.ts) is
 * held before its refusal. A right token is answered at once, so the owner keeps a way in from a
 * throttled /24 (security review 2, finding 4); a guesser waits this long per guess.
 */
export const throttledGuessDelayMs = 1_000
/**
 * Guesses one throttled client may have waiting at once; past it a token is refused (429)
 * without being compared. So a throttled client is compared at most this many times a
 * second, where without a pace it compared 729 a second (security review 3, L3).
 */
const maxPendingGuessesPerClient = 4
/** ... and all throttled clients together: each holds a connection and a timer for the delay. */
const maxPendingGuesses = 256

export interface GuessPaceOptions {
  delayMs?: number
  perClient?: number
  total?: number
  /** The wait itself (a seam for tests); a timer by default, never a blocked event loop. */
  wait?: (ms: number) => Promise<unknown>
}

/**
 * Paces the token checks of throttled clients: each one takes a place (per client and in all),
 * a wrong token keeps it for the delay, and a check that finds no place is not made. Memory is
 * bounded by the places: one count per client that holds one, nothing once they are free.
 */
export class GuessPace {
  private readonly pending = new Map<string, number>()
  private total = 0
  private readonly delayMs: number
  private readonly perClient: number
  private readonly maxTotal: number
  private readonly wait: (ms: number) => Promise<unknown>

  constructor(options: GuessPaceOptions = {}) {
    this.delayMs = options.delayMs ?? throttledGuessDelayMs
    this.perClient = options.perClient ?? maxPendingGuessesPerClient
    this.maxTotal = options.total ?? maxPendingGuesses
    this.wait = options.wait ?? sleep
  }

  /**
   * Checks a throttled client's token with `isRight`: true at once when it is right, true after
   * the delay when it is wrong (the caller then refuses it as it would have), and false without
   * calling `isRight` when the client or everyone already has every place taken.
   */
  async check(client: string, isRight: () => boolean): Promise<boolean> {
    const mine = this.pending.get(client) ?? 0
    if (mine >= this.perClient || this.total >= this.maxTotal) return false
    if (isRight()) return true
    this.pending.set(client, mine + 1)
    this.total++
    try {
      await this.wait(this.delayMs)
    } finally {
      this.total--
      const left = (this.pending.get(client) ?? 1) - 1
      if (left === 0) this.pending.delete(client)
      else this.pending.set(client, left)
    }
    return true
  }
}
