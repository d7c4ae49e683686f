import {randomUUID} from 'node:crypto'
import {utcDay} from './salt.ts'

/** What a page view is counted by, each value per hour (docs/reader-statistics.md). */
export type Dimension =
  'total' | 'page' | 'referrer' | 'campaign' | 'device' | 'browser' | 'notfound'

/** One counted view, as the request that made it was reduced to (middleware.ts). */
export interface View {
  time: number
  /** The day's visitor hash (salt.ts): held in memory for the day, never stored. */
  visitor: string
  path: string
  /** A 404: counted under "not found" only, not as a page view. */
  notFound: boolean
  referrer: string
  campaign: string | undefined
  device: string
  browser: string
}

/** One aggregated row: views and new visitors of one value in one hour (`YYYY-MM-DDTHH`). */
export interface CountRow {
  hour: string
  dimension: Dimension
  value: string
  pageviews: number
  visitors: number
}

/** A feed aggregator's reported subscribers on one day: the highest it reported that day. */
export interface FeedRow {
  day: string
  aggregator: string
  feed: string
  subscribers: number
}

/**
 * Who one process saw in the last five minutes, without naming them: per second (Unix seconds),
 * how many of its live visitors were last seen then. The content process sums the latest report
 * of each site process (liveReports.ts); each second drops out five minutes after it.
 */
export interface LiveReport {
  /** The counting process, random per start. */
  process: string
  /** When it was made, ms: a report replaces an older one of the same process only. */
  at: number
  seen: Array<[second: number, visitors: number]>
}

/** A batch: what one process counted since its last write, and its live visitors. */
export interface Batch {
  counts: CountRow[]
  feeds: FeedRow[]
  live?: LiveReport
}

/**
 * Visitor and value pairs remembered per day, to count each visitor once per value: 250,000 is
 * far past a personal site's day (a pair costs ~100 bytes). Past it, views are still counted but
 * new visitors no longer are, so the figure errs low rather than memory growing without end.
 */
export const maxSeenPerDay = 250_000

/** Views filed before they are counted in one run (Tally `add`). */
const maxPending = 1_024

/** How long a visitor counts as "now" in the live figure. */
export const liveWindowMs = 5 * 60_000
/** Visitors held for the live figure: the least recently seen are forgotten first past this. */
const maxLive = 50_000
/** How stale a live visitor's place in the forgetting order may be (its time is always exact). */
const liveMoveMs = 1_000

/**
 * A view's values in one string: a 404 is its path alone, marked by a character that no clipped
 * value holds (dimensions.ts strips control characters), as is a view without a campaign.
 */
function viewKey(view: View): string {
  if (view.notFound) return `\u0001${view.path}`
  const campaign = view.campaign ?? '\u0001'
  return `${view.path}\t${view.referrer}\t${campaign}\t${view.device}\t${view.browser}`
}

/**
 * The page views counted since the last batch, summed per hour and value, and which visitors
 * were already counted today per value. Only counts leave it (`drain`); the visitor hashes stay in
 * memory and are forgotten when the UTC day changes.
 */
export class Tally {
  private counts = new Map<string, CountRow>()
  private feeds = new Map<string, FeedRow>()
  private day = ''
  private seen = new Set<string>()
  /**
   * Per visitor, the views (`viewKey`) already counted today in every one of their values: a
   * reader's next view of the same page from the same place adds its page views without the six
   * visitor checks. Bounded with the pairs (`seenViewCount`).
   */
  private seenViews = new Map<string, Set<string>>()
  private seenViewCount = 0
  /** This batch's and this hour's rows of each view key: a repeated view is a few increments. */
  private rowsOf = new Map<string, CountRow[]>()
  /** Per visitor, when last seen, and when last moved to the end of the map (`seeLive`). */
  private readonly live = new Map<string, {time: number; movedAt: number}>()
  private readonly process = randomUUID()
  private hourStart = NaN
  private hour = ''

  /**
   * Views added and not counted yet: counted a run at a time (`settle`), when this many wait or
   * before anything reads the tally. A view's request then only files it; counting a thousand in
   * a row keeps the maps the counting walks in the CPU's cache, where counting each as its
   * request was answered found them evicted by the request's own work.
   */
  private pending: View[] = []

  add(view: View): void {
    this.pending.push(view)
    if (this.pending.length >= maxPending) this.settle()
  }

  /** Counts the views filed since the last run, in the order they came. */
  private settle(): void {
    const views = this.pending
    if (views.length === 0) return
    this.pending = []
    for (const view of views) this.countView(view)
  }

  private countView(view: View): void {
    const hour = this.hourOf(view.time)
    this.seeLive(view.visitor, view.time)
    // Every value of the view in one string, made once per view and looked up in two maps.
    const key = viewKey(view)
    let views = this.seenViews.get(view.visitor)
    if (views?.has(key)) {
      const rows = this.rowsOf.get(key)
      if (rows) {
        for (const row of rows) row.pageviews++
        return
      }
    }
    const rows = view.notFound ? this.countNotFound(hour, view) : this.countPage(hour, view)
    this.rowsOf.set(key, rows)
    // Only once every pair was remembered (the seen bound not reached), and bounded alike.
    if (this.seen.size >= maxSeenPerDay || this.seenViewCount >= maxSeenPerDay) return
    if (!views) this.seenViews.set(view.visitor, (views = new Set()))
    if (!views.has(key)) {
      views.add(key)
      this.seenViewCount++
    }
  }

  /**
   * Notes that `visitor` was seen at `time`, for the live figure. The time is updated in place;
   * the visitor moves to the end of the map (the last to be forgotten past `maxLive`) only when
   * last moved over a second ago: taking a key out of a Map and putting it back on every view
   * made V8 shrink and rebuild the table (a Map of one reader, as a quiet site has, emptied and
   * refilled each time), which cost more than the rest of counting the view.
   */
  private seeLive(visitor: string, time: number): void {
    const seen = this.live.get(visitor)
    if (seen !== undefined && Math.abs(time - seen.movedAt) < liveMoveMs) {
      seen.time = time
      return
    }
    if (seen !== undefined) this.live.delete(visitor)
    this.live.set(visitor, {time, movedAt: time})
    if (this.live.size > maxLive) this.live.delete(this.live.keys().next().value ?? '')
  }

  private countNotFound(hour: string, view: View): CountRow[] {
    return [this.count(hour, view.visitor, 'notfound', view.path)]
  }

  private countPage(hour: string, view: View): CountRow[] {
    const rows = [
      this.count(hour, view.visitor, 'total', ''),
      this.count(hour, view.visitor, 'page', view.path),
      this.count(hour, view.visitor, 'referrer', view.referrer),
    ]
    if (view.campaign !== undefined)
      rows.push(this.count(hour, view.visitor, 'campaign', view.campaign))
    rows.push(
      this.count(hour, view.visitor, 'device', view.device),
      this.count(hour, view.visitor, 'browser', view.browser),
    )
    return rows
  }

  /**
   * `YYYY-MM-DDTHH` of `time`, formatted once per hour rather than once per view. A new hour
   * starts new rows; a new UTC day forgets the day's visitors.
   */
  private hourOf(time: number): string {
    const start = time - (time % 3_600_000)
    if (start !== this.hourStart) {
      this.hourStart = start
      this.hour = new Date(start).toISOString().slice(0, 13)
      this.rowsOf = new Map()
      const day = this.hour.slice(0, 10)
      if (day !== this.day) {
        this.day = day
        this.seen = new Set()
        this.seenViews = new Map()
        this.seenViewCount = 0
      }
    }
    return this.hour
  }

  /** A feed fetch whose user agent reported its subscribers (userAgent.ts). */
  addFeed(time: number, aggregator: string, feed: string, subscribers: number): void {
    const day = utcDay(time)
    const key = `${day}\t${aggregator}\t${feed}`
    const row = this.feeds.get(key)
    if (row) row.subscribers = Math.max(row.subscribers, subscribers)
    else this.feeds.set(key, {day, aggregator, feed, subscribers})
  }

  /** Visitors seen by this process in the last five minutes. */
  liveVisitors(now: number): number {
    this.settle()
    let count = 0
    for (const [visitor, {time}] of this.live) {
      if (now - time < liveWindowMs) count++
      else this.live.delete(visitor)
    }
    return count
  }

  /** This process's live visitors at `now`, as a report for the content process. */
  liveReport(now: number): LiveReport {
    this.settle()
    const perSecond = new Map<number, number>()
    for (const [visitor, {time}] of this.live) {
      if (now - time >= liveWindowMs) this.live.delete(visitor)
      else {
        const second = Math.floor(time / 1000)
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1)
      }
    }
    return {process: this.process, at: now, seen: [...perSecond]}
  }

  /** Everything counted since the last call, with the live report; the tally starts a new batch. */
  drain(now: number): Batch {
    this.settle()
    const batch = {
      counts: [...this.counts.values()],
      feeds: [...this.feeds.values()],
      live: this.liveReport(now),
    }
    this.counts = new Map()
    this.rowsOf = new Map()
    this.feeds = new Map()
    return batch
  }

  private count(hour: string, visitor: string, dimension: Dimension, value: string): CountRow {
    const key = `${hour}\t${dimension}\t${value}`
    let row = this.counts.get(key)
    if (!row) {
      row = {hour, dimension, value, pageviews: 0, visitors: 0}
      this.counts.set(key, row)
    }
    row.pageviews++
    const pair = `${dimension}\t${value}\t${visitor}`
    if (this.seen.has(pair) || this.seen.size >= maxSeenPerDay) return row
    this.seen.add(pair)
    row.visitors++
    return row
  }
}
