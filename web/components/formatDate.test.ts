import {describe, expect, it} from 'vitest'
import {formatPostDate} from './formatDate.ts'

describe('post dates', () => {
  it('day, month name and year: one reading in every country, the same day everywhere', () => {
    expect(formatPostDate('2024-03-05')).toBe('5 March 2024')
    expect(formatPostDate('2026-11-27')).toBe('27 November 2026')
    expect(formatPostDate('1999-12-31')).toBe('31 December 1999')
  })

  it('a value that is no date is shown as it is', () => {
    expect(formatPostDate('not a date')).toBe('not a date')
  })
})
