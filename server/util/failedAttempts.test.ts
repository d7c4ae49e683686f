import {describe, expect, it} from 'vitest'
import {FailedAttempts} from './failedAttempts.ts'

describe('FailedAttempts', () => {
  it('refuses a client from its tenth failure in the window until the oldest of them expires', () => {
    let now = 0
    const attempts = new FailedAttempts({limit: 10, windowMs: 600_000, now: () => now})
    for (let i = 0; i < 9; i++) {
      attempts.fail('a')
      now += 1_000
    }
    expect(attempts.retryAfterMs('a')).toBe(0)
    attempts.fail('a')
    expect(attempts.retryAfterMs('a')).toBe(600_000 - 9_000)
    expect(attempts.retryAfterMs('b')).toBe(0)
    now = 600_001
    expect(attempts.retryAfterMs('a')).toBe(0)
  })

  it('remembers at most maxClients clients, forgetting the least recent first', () => {
    const attempts = new FailedAttempts({limit: 2, maxClients: 100, now: () => 0})
    attempts.fail('first')
    attempts.fail('first')
    for (let i = 0; i < 1_000; i++) attempts.fail(`client-${i}`)
    expect(attempts.size).toBe(100)
    expect(attempts.retryAfterMs('first')).toBe(0)
    attempts.fail('client-999')
    expect(attempts.retryAfterMs('client-999')).toBeGreaterThan(0)
  })
})
