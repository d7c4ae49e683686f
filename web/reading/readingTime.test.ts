import {describe, expect, it} from 'vitest'
import {readingMinutes, readingTimeLabel, wordsPerMinute} from './readingTime.ts'

describe('reading time', () => {
  it('rounds to whole minutes, at least one, and says nothing for an empty body', () => {
    expect(readingTimeLabel(0)).toBeNull()
    expect(readingTimeLabel(null)).toBeNull()
    expect(readingTimeLabel(12)).toBe('1 min read')
    expect(readingMinutes(wordsPerMinute * 6)).toBe(6)
    expect(readingMinutes(wordsPerMinute * 6.4)).toBe(6)
    expect(readingMinutes(wordsPerMinute * 6.6)).toBe(7)
  })
})
