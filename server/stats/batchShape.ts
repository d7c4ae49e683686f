import {isRecord} from '../util/isRecord.ts'
import {maxValueLength} from './dimensions.ts'
import type {Batch, CountRow, Dimension, FeedRow, LiveReport} from './tally.ts'

/** Rows one batch may carry: 5 s of a busy site is a few hundred; more is not a site process. */
export const maxBatchRows = 20_000

const dimensions = new Set<string>([
  'total',
  'page',
  'referrer',
  'campaign',
  'device',
  'browser',
  'notfound',
])
const isDimension = (value: unknown): value is Dimension =>
  typeof value === 'string' && dimensions.has(value)
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= 1e9
const isValue = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= maxValueLength
const isHour = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}$/.test(value)
const isDay = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)

function isCountRow(value: unknown): value is CountRow {
  return (
    isRecord(value) &&
    isHour(value.hour) &&
    isDimension(value.dimension) &&
    isValue(value.value) &&
    isCount(value.pageviews) &&
    isCount(value.visitors)
  )
}

function isFeedRow(value: unknown): value is FeedRow {
  return (
    isRecord(value) &&
    isDay(value.day) &&
    isValue(value.aggregator) &&
    isValue(value.feed) &&
    isCount(value.subscribers)
  )
}

/** Seconds a live report may name: the five-minute window is 300 of them; twice that is room. */
const maxLiveSeconds = 600
const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

function isLiveReport(value: unknown): value is LiveReport {
  return (
    isRecord(value) &&
    typeof value.process === 'string' &&
    value.process.length <= 64 &&
    isTime(value.at) &&
    Array.isArray(value.seen) &&
    value.seen.length <= maxLiveSeconds &&
    value.seen.every(
      (entry: unknown) =>
        Array.isArray(entry) && entry.length === 2 && isTime(entry[0]) && isCount(entry[1]),
    )
  )
}

/**
 * A batch a site process sent (sender.ts), checked row by row: anything else is refused whole,
 * so a bad sender cannot write values the store's bounds were not made for.
 */
export function parseBatch(value: unknown): Batch | undefined {
  if (!isRecord(value) || !Array.isArray(value.counts) || !Array.isArray(value.feeds))
    return undefined
  if (value.counts.length + value.feeds.length > maxBatchRows) return undefined
  if (!value.counts.every(isCountRow) || !value.feeds.every(isFeedRow)) return undefined
  if (value.live !== undefined && !isLiveReport(value.live)) return undefined
  return {counts: value.counts, feeds: value.feeds, live: value.live}
}
