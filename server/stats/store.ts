import {chmodSync, existsSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {weekOf} from './calendar.ts'
import type {Batch, CountRow, Dimension} from './tally.ts'

/** The statistics' own database in the data dir, beside the lake's (backed up with it). */
export const statsFile = 'stats.sqlite'

/**
 * Distinct values kept per day of the dimensions a client controls (referrer spam, forged
 * campaigns, made-up 404 paths, feed user agents); the rest of the day is counted as "other".
 */
export const maxValuesPerDay = 100
export const other = 'other'
const bounded = new Set<Dimension>(['referrer', 'campaign', 'notfound'])

const schemaVersion = 2

/**
 * Aggregated counts only: per hour, per dimension and value, page views and new visitors
 * (tally.ts), and the same summed per day and per week (Monday, UTC), which the tables read: a
 * period is its whole weeks' rows and its other days' (tables.ts), so 90 days read about 25 rows
 * per value, not 2,160 hours' (1.2 s at 1M views, bench/readers.ts) or 90 days'. Per day, each
 * feed aggregator's reported subscribers. Nothing in it names a reader.
 */
const schema = `
CREATE TABLE IF NOT EXISTS counts (
  dimension TEXT NOT NULL,
  hour TEXT NOT NULL,
  value TEXT NOT NULL,
  pageviews INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (dimension, hour, value)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS daily_counts (
  dimension TEXT NOT NULL,
  day TEXT NOT NULL,
  value TEXT NOT NULL,
  pageviews INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (dimension, day, value)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS weekly_counts (
  dimension TEXT NOT NULL,
  week TEXT NOT NULL,
  value TEXT NOT NULL,
  pageviews INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (dimension, week, value)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS feeds (
  day TEXT NOT NULL,
  aggregator TEXT NOT NULL,
  feed TEXT NOT NULL,
  subscribers INTEGER NOT NULL,
  PRIMARY KEY (day, aggregator, feed)
) WITHOUT ROWID;
`

const weekOfDay = (day: string): string => weekOf(Date.parse(`${day}T00:00:00Z`))

/**
 * The statistics' SQLite file: batches merged in one transaction each (at most one every few
 * seconds per process: flusher.ts), read by the tables of tables.ts.
 */
export class StatsStore {
  readonly db: DatabaseSync
  /** Per day and bounded dimension, the values already kept (loaded from the file on first use). */
  private known = new Map<string, Set<string>>()

  constructor(dir: string) {
    const file = join(dir, statsFile)
    const fresh = !existsSync(file)
    this.db = new DatabaseSync(file)
    if (fresh) chmodSync(file, 0o600)
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;')
    const version = Number(this.db.prepare('PRAGMA user_version').get()?.user_version ?? 0)
    this.db.exec(schema)
    // Version 1 had no weekly rollup: it is made once from the daily rows.
    if (!fresh && version < 2)
      this.db.exec(`INSERT OR REPLACE INTO weekly_counts
        SELECT dimension, date(day, '-' || ((strftime('%w', day) + 6) % 7) || ' days') AS week,
          value, sum(pageviews), sum(visitors)
        FROM daily_counts GROUP BY dimension, week, value`)
    this.db.exec(`PRAGMA user_version = ${schemaVersion}`)
  }

  /** Adds a batch: counts summed, feed subscribers the day's highest, bounds applied. */
  merge(batch: Batch): void {
    if (batch.counts.length === 0 && batch.feeds.length === 0) return
    const addCount = this.db.prepare(
      `INSERT INTO counts (dimension, hour, value, pageviews, visitors) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET pageviews = pageviews + excluded.pageviews,
         visitors = visitors + excluded.visitors`,
    )
    const addDaily = this.db.prepare(
      `INSERT INTO daily_counts (dimension, day, value, pageviews, visitors) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET pageviews = pageviews + excluded.pageviews,
         visitors = visitors + excluded.visitors`,
    )
    const addWeekly = this.db.prepare(
      `INSERT INTO weekly_counts (dimension, week, value, pageviews, visitors) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET pageviews = pageviews + excluded.pageviews,
         visitors = visitors + excluded.visitors`,
    )
    const addFeed = this.db.prepare(
      `INSERT INTO feeds (day, aggregator, feed, subscribers) VALUES (?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET subscribers = max(subscribers, excluded.subscribers)`,
    )
    this.db.exec('BEGIN')
    try {
      for (const row of batch.counts) {
        const value = this.boundedValue(row)
        addCount.run(row.dimension, row.hour, value, row.pageviews, row.visitors)
        const day = row.hour.slice(0, 10)
        addDaily.run(row.dimension, day, value, row.pageviews, row.visitors)
        addWeekly.run(row.dimension, weekOfDay(day), value, row.pageviews, row.visitors)
      }
      for (const row of batch.feeds) {
        const aggregator = this.keep(row.day, 'feed', row.aggregator, () =>
          this.db
            .prepare('SELECT DISTINCT aggregator AS value FROM feeds WHERE day = ?')
            .all(row.day),
        )
        addFeed.run(row.day, aggregator, row.feed, row.subscribers)
      }
      this.db.exec('COMMIT')
    } catch (error) {
      this.db.exec('ROLLBACK')
      throw error
    }
  }

  close(): void {
    this.db.close()
  }

  private boundedValue(row: CountRow): string {
    if (!bounded.has(row.dimension)) return row.value
    const day = row.hour.slice(0, 10)
    return this.keep(day, row.dimension, row.value, () =>
      this.db
        .prepare('SELECT value FROM daily_counts WHERE dimension = ? AND day = ?')
        .all(row.dimension, day),
    )
  }

  /** The value itself while the day has room for it, else "other". */
  private keep(
    day: string,
    what: string,
    value: string,
    load: () => Array<Record<string, unknown>>,
  ): string {
    const key = `${day}\t${what}`
    let values = this.known.get(key)
    if (!values) {
      values = new Set(load().map((row) => String(row.value)))
      values.delete(other)
      // Only today's and yesterday's sets are needed: batches carry at most the hour before.
      if (this.known.size > 64) this.known.clear()
      this.known.set(key, values)
    }
    if (values.has(value) || value === other) return value
    if (values.size >= maxValuesPerDay) return other
    values.add(value)
    return value
  }
}
