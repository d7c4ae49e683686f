import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {StatsStore, statsFile} from '../server/stats/store.ts'
import {readTable, storedTableNames} from '../server/stats/tables.ts'
import {Tally} from '../server/stats/tally.ts'
import {fmt, spread} from './stats.ts'
import type {Section} from './types.ts'

/**
 * The Readers tool's 90-day view at 1,000,000 page views (issue #38's target: under 100 ms in
 * SQLite): 90 days of views counted by the real tally and merged hour by hour into a real
 * stats.sqlite, then every table the tool loads read for 90 days, 15 times.
 */
const pageViews = 1_000_000
const days = 90
const repeats = 15

/** A skewed pick of `count` values: a few popular ones, a long tail (as pages and referrers are). */
const skewed = (count: number, r: number) => Math.floor(count * r * r * r)

export async function run(): Promise<Omit<Section, 'name'>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-readers-'))
  const store = new StatsStore(dir)
  try {
    const end = Date.parse('2026-11-27T23:59:00Z')
    const start = end - days * 86_400_000
    const perHour = Math.ceil(pageViews / (days * 24))
    const tally = new Tally()
    let seed = 1
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
    const fill = performance.now()
    for (let hour = 0; hour < days * 24; hour++) {
      for (let i = 0; i < perHour; i++) {
        tally.add({
          time: start + hour * 3_600_000 + i,
          visitor: `v${Math.floor(random() * perHour * 8)}`,
          path: `/blog/post-${skewed(300, random())}`,
          notFound: random() < 0.01,
          referrer: `site${skewed(150, random())}.example`,
          campaign: random() < 0.05 ? `campaign-${skewed(30, random())}` : undefined,
          device: ['phone', 'desktop', 'tablet'][skewed(3, random())],
          browser: ['Chrome', 'Safari', 'Firefox', 'Edge', 'Other'][skewed(5, random())],
        })
      }
      store.merge(tally.drain(start + hour * 3_600_000))
    }
    const fillSeconds = (performance.now() - fill) / 1000
    const rows = Number(store.db.prepare('SELECT count(*) AS n FROM counts').get()?.n ?? 0)
    const perTable = new Map<string, number[]>(storedTableNames.map((name) => [name, []]))
    const whole: number[] = []
    for (let i = 0; i < repeats; i++) {
      const t0 = performance.now()
      for (const name of storedTableNames) {
        const t = performance.now()
        readTable(store.db, name, days, end)
        perTable.get(name)?.push(performance.now() - t)
      }
      whole.push(performance.now() - t0)
    }
    const all = spread(whole)
    const bytes = statSync(join(dir, statsFile)).size
    return {
      title: `Readers tool: the 90-day tables at ${pageViews.toLocaleString('en')} page views`,
      tables: [
        {
          title: `Each table for ${days} days (ms, median and max of ${repeats})`,
          columns: ['table', 'median', 'max'],
          rows: [
            ...[...perTable].map(([name, times]) => {
              const s = spread(times)
              return [name, fmt(s.median), fmt(s.max)]
            }),
            ['all eight', fmt(all.median), fmt(all.max)],
          ],
        },
      ],
      notes: [
        `Target (issue #38): the 90-day view under 100 ms: ${all.max < 100 ? 'MET' : 'MISSED'} (all eight tables, slowest of ${repeats}: ${fmt(all.max)} ms).`,
        `Load average when read: ${loadavg()
          .map((n) => fmt(n))
          .join(', ')} (other work on the machine inflates every figure).`,
        'Ranked tables sum the weekly rollup for the whole weeks and the daily rows for the other days (server/stats/tables.ts).',
        `${rows.toLocaleString('en')} hourly rows, ${fmt(bytes / 1024 / 1024)} MiB; counted and merged in ${fmt(fillSeconds)} s (${days * 24} batches).`,
      ],
      data: {whole, perTable: Object.fromEntries(perTable), rows, bytes},
    }
  } finally {
    store.close()
    rmSync(dir, {recursive: true, force: true})
  }
}
