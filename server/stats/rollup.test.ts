import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {StatsStore} from './store.ts'
import {firstDay, readTable} from './tables.ts'
import {Tally} from './tally.ts'

// The ranked tables read whole weeks from the weekly rollup and the other days from the daily
// rows: for every period length and every weekday "today" falls on, the same figures as summing
// the period's days.
const dayMs = 86_400_000
const start = Date.parse('2026-08-01T00:00:00Z')
const end = Date.parse('2026-11-29T23:00:00Z') // a Sunday
let dir: string
let store: StatsStore

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stats-rollup-'))
  store = new StatsStore(dir)
  const tally = new Tally()
  let n = 0
  for (let time = start; time <= end; time += 5 * 3_600_000) {
    for (let i = 0; i < 3; i++, n++)
      tally.add({
        time,
        visitor: `v${n % 17}`,
        path: `/blog/post-${(n * 7) % 11}`,
        notFound: false,
        referrer: `r${n % 5}.example`,
        campaign: undefined,
        device: 'desktop',
        browser: 'Firefox',
      })
    store.merge(tally.drain(time))
  }
})
afterAll(() => {
  store.close()
  rmSync(dir, {recursive: true, force: true})
})

/** The period summed from the daily rows alone, ranked as the tables rank. */
function fromDays(dimension: string, days: number, now: number) {
  return store.db
    .prepare(
      `SELECT value, sum(visitors) AS visitors, sum(pageviews) AS pageviews FROM daily_counts
       WHERE dimension = ? AND day >= ? AND day <= ? GROUP BY value
       ORDER BY pageviews DESC, value`,
    )
    .all(dimension, firstDay(now, days), new Date(now).toISOString().slice(0, 10))
    .map((row) => [row.value, row.visitors, row.pageviews])
}

describe('the weekly rollup', () => {
  it('gives every period the sum of its days, whatever day of the week it ends on', () => {
    for (let back = 0; back < 7; back++) {
      const now = end - back * dayMs
      for (const days of [1, 6, 7, 8, 13, 14, 30, 90, 100]) {
        const pages = readTable(store.db, 'pages', days, now).rows.map(([path, , v, p]) => [
          path,
          v,
          p,
        ])
        expect([back, days, pages]).toEqual([back, days, fromDays('page', days, now)])
        expect([back, days, readTable(store.db, 'referrers', days, now).rows]).toEqual([
          back,
          days,
          fromDays('referrer', days, now),
        ])
      }
    }
  })

  it('is made from the daily rows when a version 1 file is opened', () => {
    const now = end - 3 * dayMs
    const before = readTable(store.db, 'pages', 90, now).rows
    store.db.exec('DROP TABLE weekly_counts; PRAGMA user_version = 1')
    store.close()
    store = new StatsStore(dir)
    expect(readTable(store.db, 'pages', 90, now).rows).toEqual(before)
  })
})
