import type {StatsTable} from './statsTables.ts'

/** One day of the `daily` table: date, visitors, pageviews (every day, none skipped). */
export interface Day {
  date: string
  visitors: number
  pageviews: number
}

/** The `daily` table's rows as days: the site's (the Readers tool) or one page's (a post's view). */
export function dailyRows(table: StatsTable): Day[] {
  return table.rows.map(([date, visitors, pageviews]) => ({
    date: String(date),
    visitors: Number(visitors),
    pageviews: Number(pageviews),
  }))
}
