import {describe, expect, it} from 'vitest'
import {RefusalLog, safe} from './log.ts'

describe('log safety', () => {
  it('escapes control characters so a value cannot forge a log line', () => {
    expect(safe('a\nb\r\u001b[31mc\u2028')).toBe('a\\nb\\r\\u001b[31mc\\u2028')
    expect(safe('x'.repeat(300), 10)).toBe('xxxxxxxxxx…(300 chars)')
  })

  it('summarises repeated refusals: one line per client and kind per window, then a count', () => {
    const lines: string[] = []
    let now = 0
    const log = new RefusalLog({windowMs: 60_000, now: () => now, write: (l) => lines.push(l)})
    for (let i = 0; i < 1000; i++) log.refuse('198.51.100.0/24', '401', `401 bad token ${i}`)
    log.refuse('203.0.113.0/24', '401', '401 bad token\nforged')
    expect(lines).toEqual(['401 bad token 0', '401 bad token\\nforged'])
    now = 61_000
    log.roll()
    expect(lines.slice(2)).toEqual(['[refused] 198.51.100.0/24 401: 999 more in the last minute'])
  })

  it('holds a bounded number of keys under a flood of distinct clients', () => {
    const lines: string[] = []
    let now = 0
    const log = new RefusalLog({maxKeys: 10, now: () => now, write: (l) => lines.push(l)})
    for (let i = 0; i < 5000; i++) log.refuse(`client-${i}`, '429', `refused ${i}`)
    expect(lines).toHaveLength(10)
    now = 60_000
    log.roll()
    expect(lines.at(-1)).toBe('[refused] 4990 more from other clients in the last minute')
  })
})
