import {describe, expect, it} from 'vitest'
import {RateLimiter} from './rateLimit.ts'

describe('RateLimiter', () => {
  it('lets 5 messages through per 10 minutes per client, then says how long to wait', () => {
    let now = 1_000_000
    const limiter = new RateLimiter({now: () => now})
    for (let i = 0; i < 5; i++) {
      expect(limiter.take('203.0.113.7')).toBe(0)
      now += 60_000
    }
    // First message at t0; now = t0 + 5 min: 5 minutes left in its window.
    expect(limiter.take('203.0.113.7')).toBe(300)
    expect(limiter.take('198.51.100.1')).toBe(0)
  })

  it('slides: each message frees a slot ten minutes after it was sent', () => {
    let now = 0
    const limiter = new RateLimiter({now: () => now, limit: 2, windowMs: 1000})
    expect(limiter.take('a')).toBe(0)
    now = 500
    expect(limiter.take('a')).toBe(0)
    expect(limiter.take('a')).toBe(1)
    now = 1001
    expect(limiter.take('a')).toBe(0)
    expect(limiter.take('a')).toBe(1)
  })

  it('refused attempts do not extend the wait', () => {
    let now = 0
    const limiter = new RateLimiter({now: () => now, limit: 1, windowMs: 10_000})
    expect(limiter.take('a')).toBe(0)
    for (now = 1000; now < 10_000; now += 1000) expect(limiter.take('a')).toBeGreaterThan(0)
    now = 10_001
    expect(limiter.take('a')).toBe(0)
  })

  it('a costly take spends more of the window, and waits until enough of it has slid by', () => {
    let now = 0
    const limiter = new RateLimiter({now: () => now, limit: 10, windowMs: 10_000})
    expect(limiter.take('a', 4)).toBe(0)
    now = 2_000
    expect(limiter.take('a', 4)).toBe(0)
    // 8 spent: a cost of 4 waits for the first take to slide out (t = 10 s), a cost of 1 does not.
    expect(limiter.take('a', 4)).toBe(8)
    expect(limiter.take('a')).toBe(0)
    // Costs below 1 count as 1; a cost above the limit as the whole window, never refused for ever.
    expect(limiter.take('b', 0.01)).toBe(0)
    now = 12_001
    expect(limiter.take('c', 50)).toBe(0)
    expect(limiter.take('c')).toBe(10)
  })

  it('forgets the least recently seen clients beyond its bound', () => {
    const limiter = new RateLimiter({now: () => 0, limit: 1, maxClients: 2})
    limiter.take('a')
    limiter.take('b')
    limiter.take('c')
    expect(limiter.take('a')).toBe(0)
    expect(limiter.take('c')).toBeGreaterThan(0)
  })
})
