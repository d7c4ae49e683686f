import {describe, expect, it} from 'vitest'
import {ColdTransformBudget} from './coldBudget.ts'

describe('the per-client budget of cold transforms', () => {
  it('allows the limit per minute per client, then says how long to wait', () => {
    let now = 0
    const budget = new ColdTransformBudget(3, () => now)
    expect([1, 2, 3].map(() => budget.take('a'))).toEqual([0, 0, 0])
    expect(budget.take('a')).toBe(60)
    expect(budget.take('b')).toBe(0)
    now = 45_000
    expect(budget.take('a')).toBe(15)
    now = 60_000
    expect(budget.take('a')).toBe(0)
  })
})
