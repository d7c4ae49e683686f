import {describe, expect, it} from 'vitest'
import {subscribersCsv} from './csvExport.ts'

describe('the subscribers CSV', () => {
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
