import type {Hono} from 'hono'
import {clientOf} from '../http/clientAddress.ts'
import {csvCell} from '../http/csv.ts'
import {isOwnerBearer} from '../http/ownerBearer.ts'
import type {Lake} from '../lake/index.ts'
import type {RateLimiter} from '../util/rateLimit.ts'
import type {Subscriber, Subscribers} from './subscribers.ts'

export const exportPath = '/api/subscribers.csv'

export function subscribersCsv(subscribers: Subscriber[]): string {
  const rows = subscribers.map((s) =>
    [s.email, s.status, s.subscribedAt, s.confirmedAt ?? ''].map(csvCell).join(','),
  )
  return ['email,status,subscribedAt,confirmedAt', ...rows].join('\r\n') + '\r\n'
}

/**
 * GET /api/subscribers.csv: the subscriber list for the owner (the owner token or a Studio
 * session as a bearer token; wrong tokens count towards the lake's per-client throttle).
 */
export function registerCsvExport(
  app: Hono,
  lake: Lake,
  subscribers: Subscribers,
  limiter: RateLimiter,
): void {
  app.get(exportPath, async (c) => {
    const client = clientOf(c).key
    c.header('Cache-Control', 'no-store')
    // Every request counts, so wrong tokens cannot be tried at speed.
    const wait = limiter.take(client)
    if (wait > 0) {
      c.header('Retry-After', String(wait))
      return c.json({error: 'Too Many Requests', message: 'Too many requests.'}, 429)
    }
    // The owner token or a Studio session; a preview session only reads drafts, not this.
    if (!isOwnerBearer(c, (token) => lake.verifyToken(token))) {
      console.warn(`[newsletter] 401 from ${client}: export without the owner's token`)
      return c.json({error: 'Unauthorized', message: 'The export needs the owner token.'}, 401)
    }
    c.header('Content-Type', 'text/csv; charset=utf-8')
    c.header('Content-Disposition', 'attachment; filename="subscribers.csv"')
    return c.body(subscribersCsv(await subscribers.all()))
  })
}
