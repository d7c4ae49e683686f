import {describe, expect, it} from 'vitest'
import {DailySalt} from './salt.ts'

const noon = Date.parse('2026-11-27T12:00:00Z')
const browser = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'

describe("the day's visitor hash", () => {
  it('names a reader alike all day, apart from others, and anew the next day', () => {
    const salt = new DailySalt()
    const reader = salt.visitor(noon, '203.0.113.0/24', browser)
    expect(reader).toMatch(/^[A-Za-z0-9+/]{22}$/)
    expect(salt.visitor(noon + 3_600_000, '203.0.113.0/24', browser)).toBe(reader)
    expect(salt.visitor(noon, '198.51.100.0/24', browser)).not.toBe(reader)
    expect(salt.visitor(noon, '203.0.113.0/24', `${browser} Other`)).not.toBe(reader)
    // After midnight UTC the salt is new: yesterday's reader cannot be followed into today.
    const tomorrow = salt.visitor(noon + 86_400_000, '203.0.113.0/24', browser)
    expect(tomorrow).not.toBe(reader)
    expect(salt.visitor(noon + 86_400_000 + 60_000, '203.0.113.0/24', browser)).toBe(tomorrow)
  })

  it('keeps telling readers apart past the readers it remembers', () => {
    const salt = new DailySalt()
    const first = salt.visitor(noon, 'reader-0', browser)
    const names = new Set<string>()
    for (let i = 0; i < 10_000; i++) names.add(salt.visitor(noon, `reader-${i}`, browser))
    expect(names.size).toBe(10_000)
    expect(salt.visitor(noon, 'reader-0', browser)).toBe(first)
  })
})
