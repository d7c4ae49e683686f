import {describe, expect, it} from 'vitest'
import {formatListDate, formatPostDate} from './formatDate.ts'

describe('post dates', () => {
  it('list: en-GB two-digit day/month/year, the same day everywhere', () => {
    expect(formatListDate('2024-03-05')).toBe('05/03/24')
    expect(formatListDate('1999-12-31')).toBe('31/12/99')
  })

  it('list: a date that is not one says so, as toLocaleDateString() does', () => {
    expect(formatListDate('not a date')).toBe('Invalid Date')
  })

  it('post page: the given locale, in UTC', () => {
    expect(formatPostDate('2024-03-05', 'en-US')).toBe('3/5/2024')
    expect(formatPostDate('2024-03-05', 'en-GB')).toBe('05/03/2024')
    expect(formatPostDate('2024-03-05', 'de-DE')).toBe('5.3.2024')
  })
})
