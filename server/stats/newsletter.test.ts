import {afterAll, beforeAll, expect, it} from 'vitest'
import {Subscribers} from '../newsletter/subscribers.ts'
import {startStatsApp, type StatsApp} from './testing/statsApp.ts'

// The owner's newsletter table, from what the newsletter itself stored: real subscribe, confirm
// and unsubscribe writes on a real lake, read back as `/api/stats/newsletter.{json,csv}`.
const now = Date.parse('2026-11-27T12:00:00Z') // a Friday
let stats: StatsApp

const at = (iso: string) => new Date(iso)

beforeAll(async () => {
  stats = await startStatsApp({}, {now: () => now})
  const subscribers = new Subscribers(stats.lake.lake)
  const join = async (hash: string, subscribed: string, confirmed?: string) => {
    const outcome = await subscribers.subscribe(`${hash}@example.com`, hash, at(subscribed))
    if (outcome.mail !== 'confirm') throw new Error(`${hash} was not asked to confirm`)
    if (confirmed) await subscribers.confirm(hash, outcome.subscriber.confirmNonce, at(confirmed))
  }
  // Week of Mon 2026-11-09: two confirm. Week of 11-16: one more, one of the first leaves.
  // Week of 11-23: a pending address unsubscribes (it was never on the list), one confirms.
  await join('ada', '2026-11-10T09:00:00Z', '2026-11-10T09:05:00Z')
  await join('bea', '2026-11-11T09:00:00Z', '2026-11-12T08:00:00Z')
  await join('cid', '2026-11-17T09:00:00Z', '2026-11-17T10:00:00Z')
  await subscribers.unsubscribe('bea', at('2026-11-19T18:00:00Z'))
  await join('dot', '2026-11-24T09:00:00Z')
  await subscribers.unsubscribe('dot', at('2026-11-25T09:00:00Z'))
  await join('eve', '2026-11-26T09:00:00Z', '2026-11-26T09:30:00Z')
}, 120_000)
afterAll(() => stats?.stop())

it('counts active subscribers at each week’s end, and the week’s confirmations and unsubscribes', async () => {
  const table = await stats.table('newsletter', 'days=21')
  expect(table).toEqual({
    columns: ['week', 'active', 'confirmations', 'unsubscribes'],
    rows: [
      ['2026-11-02', 0, 0, 0],
      ['2026-11-09', 2, 2, 0],
      ['2026-11-16', 2, 1, 1],
      ['2026-11-23', 3, 1, 0],
    ],
  })
  // The 7-day period still starts on a whole week.
  expect((await stats.table('newsletter', 'days=7')).rows).toEqual([
    ['2026-11-16', 2, 1, 1],
    ['2026-11-23', 3, 1, 0],
  ])
})

it('keeps of an address that left only dates, and serves the table as CSV to the owner only', async () => {
  const left = await stats.lake.owner.fetch('*[_id == "unsubscribed.bea"][0]')
  expect(Object.keys(left).sort()).toEqual(
    ['_createdAt', '_id', '_rev', '_type', '_updatedAt', 'confirmedAt', 'unsubscribedAt'].sort(),
  )
  const csv = await stats.request('/api/stats/newsletter.csv?days=7', {
    headers: {authorization: `Bearer ${stats.lake.token}`},
  })
  expect(csv.status).toBe(200)
  expect(await csv.text()).toBe(
    'week,active,confirmations,unsubscribes\r\n"2026-11-16","2","1","1"\r\n"2026-11-23","3","1","0"\r\n',
  )
  const anonymous = await stats.request('/api/stats/newsletter.json')
  expect(anonymous.status).toBe(401)
  expect(await anonymous.text()).toContain('owner token')
})
