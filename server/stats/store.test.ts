import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {maxValuesPerDay, other, StatsStore, statsFile} from './store.ts'
import {readTable} from './tables.ts'
import {aView, testNoon} from './testing.ts'
import {Tally} from './tally.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stats-store-'))
})
afterEach(() => rmSync(dir, {recursive: true, force: true}))

const noon = testNoon
const view = aView

describe('the statistics store', () => {
  it('keeps 100 referrer hosts a day and counts the rest as "other", across batches and a reopen', () => {
    const tally = new Tally()
    let store = new StatsStore(dir)
    for (let i = 0; i < 60; i++) tally.add(view({visitor: `v${i}`, referrer: `spam${i}.example`}))
    store.merge(tally.drain(noon))
    store.close()
    // A restart: the day's kept hosts are read back, so the bound holds over the whole day.
    store = new StatsStore(dir)
    for (let i = 60; i < 130; i++) tally.add(view({visitor: `v${i}`, referrer: `spam${i}.example`}))
    store.merge(tally.drain(noon))
    const rows = readTable(store.db, 'referrers', 1, noon).rows
    expect(rows).toHaveLength(maxValuesPerDay + 1)
    expect(rows[0]).toEqual([other, 30, 30])
    // The next day has room again.
    tally.add(view({time: noon + 86_400_000, referrer: 'new.example'}))
    store.merge(tally.drain(noon))
    expect(readTable(store.db, 'referrers', 1, noon + 86_400_000).rows).toEqual([
      ['new.example', 1, 1],
    ])
    store.close()
    expect(statSync(join(dir, statsFile)).mode & 0o777).toBe(0o600)
  })

  it('counts a visitor once a day per value, and again the next day', () => {
    const tally = new Tally()
    const store = new StatsStore(dir)
    tally.add(view({}))
    tally.add(view({time: noon + 3_600_000}))
    tally.add(view({time: noon + 86_400_000}))
    store.merge(tally.drain(noon))
    expect(readTable(store.db, 'daily', 2, noon + 86_400_000).rows).toEqual([
      ['2026-11-27', 1, 2],
      ['2026-11-28', 1, 1],
    ])
    store.close()
  })

  it('keeps the highest subscriber count an aggregator reported on a day', () => {
    const tally = new Tally()
    const store = new StatsStore(dir)
    tally.addFeed(noon, 'Feedly', '/rss.xml', 40)
    tally.addFeed(noon, 'Feedly', '/rss.xml', 42)
    store.merge(tally.drain(noon))
    tally.addFeed(noon + 60_000, 'Feedly', '/rss.xml', 41)
    tally.addFeed(noon + 60_000, 'Feedly', '/atom.xml', 3)
    store.merge(tally.drain(noon))
    expect(readTable(store.db, 'feeds', 1, noon).rows).toEqual([['2026-11-27', 'Feedly', 45]])
    store.close()
  })
})
