import {describe, expect, it} from 'vitest'
import {ColdTransformBudget, coldPixelsPerMinute, minColdPixels} from './coldBudget.ts'

/** How many cold transforms of `pixels` each one client gets in one minute. */
function allowed(budget: ColdTransformBudget, client: string, pixels: number): number {
  let count = 0
  while (budget.take(client, pixels) === 0) count++
  return count
}

describe('the per-client budget of cold transforms', () => {
  it('allows the limit per minute per client, then says how long to wait', () => {
    let now = 0
    const budget = new ColdTransformBudget(3 * minColdPixels, () => now)
    expect([1, 2, 3].map(() => budget.take('a', 100))).toEqual([0, 0, 0])
    expect(budget.take('a', 100)).toBe(60)
    expect(budget.take('b', 100)).toBe(0)
    now = 45_000
    expect(budget.take('a', 100)).toBe(15)
    now = 60_000
    expect(budget.take('a', 100)).toBe(0)
  })

  it('is weighted by output pixels: the largest variants use it up far sooner (review 3, M2)', () => {
    const budget = new ColdTransformBudget(coldPixelsPerMinute, () => 0)
    // A reader's page or the Studio's thumbnails: small outputs, 120 a minute as before.
    expect(allowed(budget, 'reader', 480 * 320)).toBe(120)
    // 2560 × 1600 outputs, the largest allowed: 14, not 120.
    expect(allowed(budget, 'greedy', 2560 * 1600)).toBe(14)
  })
})
