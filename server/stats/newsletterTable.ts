import {dayMs, weekOf} from './calendar.ts'
import {utcDay} from './salt.ts'
import {firstDay, type Table} from './tables.ts'

/**
 * What the newsletter keeps of each address, read for the owner's `newsletter` table: the dates
 * only (server/newsletter/subscribers.ts). A subscriber is active from `confirmedAt`; what is left
 * of an address that unsubscribed keeps `unsubscribedAt`, and `confirmedAt` if it was active.
 */
export const newsletterDatesQuery = `*[_type in ["subscriber", "unsubscribedAddress"]]{
  _type, status, confirmedAt, unsubscribedAt, pending
}`

/** One document of `newsletterDatesQuery`'s answer. */
export interface NewsletterDates {
  _type: string
  status?: string
  confirmedAt?: string
  unsubscribedAt?: string
  /** An address that unsubscribed before it confirmed: it was never on the list. */
  pending?: boolean
}

const timeOf = (value: string | undefined): number | undefined => {
  const time = value === undefined ? NaN : Date.parse(value)
  return Number.isFinite(time) ? time : undefined
}

/**
 * The newsletter per week (Monday, UTC) over the weeks that overlap the last `days` days:
 * confirmations and unsubscribes in the week, and the active subscribers at its end (now, for
 * the current week). An address that unsubscribed before its record kept `confirmedAt` (or
 * `pending`) counts as an unsubscribe, but is missing from the earlier weeks' active figure: when
 * it had been active is not known.
 */
export function newsletterTable(docs: NewsletterDates[], days: number, now: number): Table {
  const joins: number[] = []
  const leaves: number[] = []
  const unsubscribes: number[] = []
  for (const doc of docs) {
    const confirmed = timeOf(doc.confirmedAt)
    if (doc._type === 'subscriber') {
      if (doc.status === 'active' && confirmed !== undefined) joins.push(confirmed)
      continue
    }
    const left = timeOf(doc.unsubscribedAt)
    if (left === undefined) continue
    // A pending address that never confirmed was never on the list: not an unsubscribe.
    if (doc.pending === true) continue
    unsubscribes.push(left)
    if (confirmed !== undefined) {
      joins.push(confirmed)
      leaves.push(left)
    }
  }
  const rows: Table['rows'] = []
  const first = Date.parse(weekOf(Date.parse(firstDay(now, days))))
  for (let start = first; start <= now; start += 7 * dayMs) {
    const end = Math.min(start + 7 * dayMs, now + 1)
    const inWeek = (time: number) => time >= start && time < end
    const before = (time: number) => time < end
    rows.push([
      utcDay(start),
      joins.filter(before).length - leaves.filter(before).length,
      joins.filter(inWeek).length,
      unsubscribes.filter(inWeek).length,
    ])
  }
  return {columns: ['week', 'active', 'confirmations', 'unsubscribes'], rows}
}
