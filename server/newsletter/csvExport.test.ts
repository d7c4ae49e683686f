import {describe, expect, it} from 'vitest'
import {csvCell, subscribersCsv} from './csvExport.ts'

describe('the subscribers CSV', () => {
  it('quotes every cell, doubles quotes and defuses formulas', () => {
    expect(csvCell('a@example.com')).toBe('"a@example.com"')
    expect(csvCell('say "hi"@example.com')).toBe('"say ""hi""@example.com"')
    expect(csvCell('=HYPERLINK("x")@example.com')).toBe(`"'=HYPERLINK(""x"")@example.com"`)
    expect(csvCell('+1@example.com')).toBe(`"'+1@example.com"`)
  })

  it('has a header row and one CRLF line per subscriber', () => {
    const csv = subscribersCsv([
      {
        _id: 'subscriber.x',
        _type: 'subscriber',
        email: 'a@example.com',
        status: 'active',
        subscribedAt: '2026-11-01T00:00:00.000Z',
        confirmedAt: '2026-11-01T00:05:00.000Z',
      },
    ])
    expect(csv).toBe(
      'email,status,subscribedAt,confirmedAt\r\n"a@example.com","active","2026-11-01T00:00:00.000Z","2026-11-01T00:05:00.000Z"\r\n',
    )
  })
})
