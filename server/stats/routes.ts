import type {Context, Hono} from 'hono'
import {csvDocument} from '../http/csv.ts'
import {HttpError} from '../http/httpError.ts'
import {ownerOrWait} from '../http/ownerBearer.ts'
import type {FailedAttempts} from '../util/failedAttempts.ts'
import {maxValueLength} from './dimensions.ts'
import {isTableName, maxDays, type Table, type TableName} from './tables.ts'

export const statsPath = '/api/stats'

/** The default period of a table asked for without `days`: the Studio's middle chart. */
const defaultDays = 30

export interface StatsRouteDeps {
  /** The lake's answer to a bearer token; hosted mode has none, and serves no table. */
  verify(token: string | undefined): {preview?: true} | undefined
  attempts: FailedAttempts | undefined
  /** Writes what was counted so far, so a table shows every view served before it was asked. */
  flush(): Promise<void>
  /** `page`: the daily table of that one page only. */
  table(name: TableName, days: number, page: string | undefined): Promise<Table>
  /** Visitors of the last five minutes. */
  live(): number
}

/** `?days=N`: a whole number from 1 to `maxDays`, else a 400. */
function daysOf(c: Context): number {
  const raw = c.req.query('days')
  if (raw === undefined) return defaultDays
  const days = /^\d{1,3}$/.test(raw) ? Number(raw) : 0
  if (days < 1 || days > maxDays)
    throw new HttpError(400, `days must be a whole number from 1 to ${maxDays}`)
  return days
}

/** `?page=/path` (the daily table only): one page's days, as a post's document shows them. */
function pageOf(c: Context, name: TableName): string | undefined {
  const page = c.req.query('page')
  if (page === undefined) return undefined
  if (name !== 'daily' || !page.startsWith('/') || page.length > maxValueLength)
    throw new HttpError(
      400,
      `page must be a path of up to ${maxValueLength} characters, on the daily table`,
    )
  return page
}

/**
 * The owner's tables (docs/reader-statistics.md): `GET /api/stats/<table>.csv?days=N` to
 * download, `.json` for the Studio's Readers tool, and `live.json`. The owner token or a Studio
 * session as the bearer token; anyone else gets 401 (wrong tokens count towards the lake's
 * per-client throttle: 429 past it).
 */
export function registerStatsRoutes(app: Hono, deps: StatsRouteDeps): void {
  app.get(`${statsPath}/:file`, async (c) => {
    c.header('Cache-Control', 'no-store')
    const wait = deps.attempts ? ownerOrWait(c, deps.verify, deps.attempts) : undefined
    if (wait === undefined) throw new HttpError(401, 'Reader statistics need the owner token.')
    if (wait > 0) {
      c.header('Retry-After', String(wait))
      throw new HttpError(429, 'Too many wrong tokens: try again later.')
    }
    const match = /^([a-z]+)\.(csv|json)$/.exec(c.req.param('file'))
    if (match?.[1] === 'live' && match[2] === 'json') return c.json({visitors: deps.live()})
    if (!match || !isTableName(match[1]))
      throw new HttpError(404, 'No such table of reader statistics.')
    const name = match[1]
    const days = daysOf(c)
    const page = pageOf(c, name)
    await deps.flush()
    const table = await deps.table(name, days, page)
    if (match[2] === 'json') return c.json(table)
    c.header('Content-Type', 'text/csv; charset=utf-8')
    c.header('Content-Disposition', `attachment; filename="${name}-${days}d.csv"`)
    return c.body(csvDocument(table.columns, table.rows))
  })
}
