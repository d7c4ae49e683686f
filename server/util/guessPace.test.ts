import {describe, expect, it} from 'vitest'
import {GuessPace} from './guessPace.ts'

/** Waits the test releases by hand, so what is pending is known exactly. */
function heldWaits() {
  const waiting: Array<() => void> = []
  return {
    waiting,
    wait: (ms: number) => {
      expect(ms).toBe(1_000)
      return new Promise<void>((resolve) => waiting.push(resolve))
    },
  }
}

describe('the pace of a throttled client’s guesses (security review 3, L3)', () => {
  it('answers a right token at once, holds a wrong one, and compares none past the places', async () => {
    const {waiting, wait} = heldWaits()
    const pace = new GuessPace({delayMs: 1_000, perClient: 2, total: 3, wait})
    expect(await pace.check('a', () => true)).toBe(true)
    expect(waiting).toHaveLength(0)

    const wrong = [pace.check('a', () => false), pace.check('a', () => false)]
    expect(waiting).toHaveLength(2)
    // The client's places are full: the next token is not even compared, right or wrong.
    let compared = false
    expect(
      await pace.check('a', () => {
        compared = true
        return true
      }),
    ).toBe(false)
    expect(compared).toBe(false)
    // Another client has its own places, up to the total.
    const other = pace.check('b', () => false)
    expect(waiting).toHaveLength(3)
    expect(await pace.check('c', () => true)).toBe(false)

    for (const release of waiting.splice(0)) release()
    expect(await Promise.all([...wrong, other])).toEqual([true, true, true])
    // Places come back once the delay is over.
    expect(await pace.check('a', () => true)).toBe(true)
    expect(await pace.check('c', () => true)).toBe(true)
  })
})
