import {chmodSync, existsSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
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

const schemaVersion = 1

/**
 * Aggregated counts only: per hour, per dimension and value, page views and new visitors
 * (tally.ts), and the same summed per day, which the tables read (an hour's rows are 24 times as
 * many: 90 days at 1M views took 1.2 s to rank from them, bench/readers.ts); per day, each feed
 * aggregator's reported subscribers. Nothing in it names a reader.
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
CREATE TABLE IF NOT EXISTS feeds (
  day TEXT NOT NULL,
  aggregator TEXT NOT NULL,
  feed TEXT NOT NULL,
  subscribers INTEGER NOT NULL,
  PRIMARY KEY (day, aggregator, feed)
) WITHOUT ROWID;
`

/**
 * The statistics' SQLite file: batches merged in one transaction each (at most one every few
 * seconds per process: flusher.ts), read by the tables of queries.ts.
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
    this.db.exec(schema)
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
    const addFeed = this.db.prepare(
      `INSERT INTO feeds (day, aggregator, feed, subscribers) VALUES (?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET subscribers = max(subscribers, excluded.subscribers)`,
    )
    this.db.exec('BEGIN')
    try {
      for (const row of batch.counts) {
        const value = this.boundedValue(row)
        addCount.run(row.dimension, row.hour, value, row.pageviews, row.visitors)
        addDaily.run(row.dimension, row.hour.slice(0, 10), value, row.pageviews, row.visitors)
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
