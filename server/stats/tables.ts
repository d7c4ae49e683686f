import type {DatabaseSync} from 'node:sqlite'
import type {Dimension} from './tally.ts'
import {addDays, weekOf} from './calendar.ts'
import {utcDay} from './salt.ts'

/** The tables read from stats.sqlite (readTable). */
export const storedTableNames = [
  'daily',
  'pages',
  'referrers',
  'campaigns',
  'devices',
  'browsers',
  'notfound',
  'feeds',
] as const
export type StoredTableName = (typeof storedTableNames)[number]

/**
 * The tables the Studio shows and `/api/stats/<table>.csv` serves (docs/reader-statistics.md):
 * the stored ones, and the newsletter's, read from its documents (newsletterTable.ts).
 */
export const tableNames = [...storedTableNames, 'newsletter'] as const
export type TableName = (typeof tableNames)[number]

export const isTableName = (name: string): name is TableName =>
  (tableNames as readonly string[]).includes(name)

/** A table: its column names and rows of cells, in that order. */
export interface Table {
  columns: string[]
  rows: Array<Array<string | number>>
}

/** The longest period asked for: the Studio's longest chart is 90 days; a year is room to spare. */
export const maxDays = 366
/** Rows of a ranked table: a chart or a spreadsheet needs no more, and a reply stays small. */
const maxRows = 1000

/** The first day of the last `days` days (today included), `YYYY-MM-DD`. */
export const firstDay = (now: number, days: number): string => utcDay(now - (days - 1) * 86_400_000)

const rankedDimensions: Record<Exclude<StoredTableName, 'daily' | 'feeds'>, [Dimension, string]> = {
  pages: ['page', 'path'],
  referrers: ['referrer', 'referrer'],
  campaigns: ['campaign', 'campaign'],
  devices: ['device', 'device'],
  browsers: ['browser', 'browser'],
  notfound: ['notfound', 'path'],
}

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? 0))

/**
 * One table over the last `days` days. Visitors of a period are the sum of each day's unique
 * visitors (a visitor is a new one each day: the salt changes). `titles` names the posts of
 * the pages table by path; `page` narrows the daily table to that page's views.
 */
export function readTable(
  db: DatabaseSync,
  name: StoredTableName,
  days: number,
  now: number,
  titles: Map<string, string> = new Map(),
  page?: string,
): Table {
  const from = firstDay(now, days)
  if (name === 'daily') {
    // One page's days (a post's own views in its document), or the whole site's.
    const [dimension, value] = page === undefined ? ['total', ''] : ['page', page]
    const rows = db
      .prepare(
        `SELECT day, visitors, pageviews FROM daily_counts
         WHERE dimension = ? AND day >= ? AND value = ? ORDER BY day`,
      )
      .all(dimension, from, value)
    const byDay = new Map(rows.map((row) => [String(row.day), row]))
    // Every day of the period, zeros included, so a chart's axis has no gaps.
    const all: Table['rows'] = []
    for (let i = days - 1; i >= 0; i--) {
      const day = utcDay(now - i * 86_400_000)
      const row = byDay.get(day)
      all.push([day, num(row?.visitors), num(row?.pageviews)])
    }
    return {columns: ['date', 'visitors', 'pageviews'], rows: all}
  }
  if (name === 'feeds') {
    const rows = db
      .prepare(
        `SELECT day, aggregator, sum(subscribers) AS subscribers FROM feeds WHERE day >= ?
         GROUP BY day, aggregator ORDER BY day, subscribers DESC LIMIT ?`,
      )
      .all(from, maxRows)
    return {
      columns: ['date', 'aggregator', 'subscribers'],
      rows: rows.map((row) => [String(row.day), String(row.aggregator), num(row.subscribers)]),
    }
  }
  const [dimension, column] = rankedDimensions[name]
  // The period's whole weeks from the weekly rollup, its other days (before the first Monday,
  // and the days of a week not over yet) from the daily rows: about 25 rows per value for 90 days.
  const to = utcDay(now)
  const fromWeek = weekOf(Date.parse(`${from}T00:00:00Z`))
  const firstMonday = fromWeek === from ? from : addDays(fromWeek, 7)
  const thisMonday = weekOf(now)
  const wholeWeeksEnd = addDays(thisMonday, 6) === to ? addDays(thisMonday, 7) : thisMonday
  const rows = db
    .prepare(
      `SELECT value, sum(visitors) AS visitors, sum(pageviews) AS pageviews FROM (
         SELECT value, visitors, pageviews FROM weekly_counts
         WHERE dimension = :dimension AND week >= :firstMonday AND week < :wholeWeeksEnd
         UNION ALL
         SELECT value, visitors, pageviews FROM daily_counts
         WHERE dimension = :dimension AND day >= :from AND day <= :to
           AND (day < :firstMonday OR day >= :wholeWeeksEnd)
       ) GROUP BY value ORDER BY pageviews DESC, value LIMIT :limit`,
    )
    .all({dimension, firstMonday, wholeWeeksEnd, from, to, limit: maxRows})
  if (name === 'pages')
    return {
      columns: ['path', 'title', 'visitors', 'pageviews'],
      rows: rows.map((row) => {
        const path = String(row.value)
        return [path, titles.get(path) ?? '', num(row.visitors), num(row.pageviews)]
      }),
    }
  return {
    columns: [column, 'visitors', 'pageviews'],
    rows: rows.map((row) => [String(row.value), num(row.visitors), num(row.pageviews)]),
  }
}
