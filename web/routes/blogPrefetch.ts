import {getBrowserClient} from '../browserClient.ts'
import {tabCategory, type BlogTab} from '../blogTabs.ts'
import {postPageQuery} from '../queries.ts'
import type {PostPageQueryResult} from '../../shared/sanity.types.ts'

/**
 * How long a tab fetched ahead stays usable: a tab shown later than this is fetched again, so a
 * post published meanwhile appears. Short, because the point is only the next tap.
 */
export const prefetchFreshMs = 30_000

const ahead = new Map<string, {at: number; page: Promise<PostPageQueryResult>}>()

/**
 * Fetches ahead run one at a time: the lake allows an anonymous visitor two queries in flight
 * (server/lake/queryPool/queryBudgets.ts), and the visitor's own next tap must find one free.
 */
const waiting: Array<() => void> = []
let running = false

function next(): void {
  const run = waiting.shift()
  if (!run) {
    running = false
    return
  }
  running = true
  run()
}

/** Runs `task` when no other fetch ahead runs; `first` puts it before those already waiting. */
export function fetchAhead<T>(task: () => Promise<T>, first = false): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const run = () => task().then(resolve, reject).finally(next)
    if (first) waiting.unshift(run)
    else waiting.push(run)
    if (!running) next()
  })
}
const keyOf = (tab: BlogTab, count: number) => `${tab}|${count}`

/**
 * Fetches a tab's first `count` posts ahead of a tap (browser only: BlogTabs calls it once the app
 * has hydrated, and on pointerdown), so the tab's client-side navigation costs no round trip.
 */
export function prefetchTab(tab: BlogTab, count: number): void {
  const key = keyOf(tab, count)
  const known = ahead.get(key)
  if (known && Date.now() - known.at < prefetchFreshMs) return
  const page = fetchAhead(() =>
    getBrowserClient().then((client) =>
      client.fetch(postPageQuery, {category: tabCategory(tab), start: 0, end: count}),
    ),
  )
  page.catch(() => ahead.delete(key))
  ahead.set(key, {at: Date.now(), page})
}

/** The page fetched ahead for this tab and count, if still fresh; each is used once. */
export function takePrefetched(
  tab: BlogTab,
  count: number,
): Promise<PostPageQueryResult> | undefined {
  const key = keyOf(tab, count)
  const known = ahead.get(key)
  ahead.delete(key)
  return known && Date.now() - known.at < prefetchFreshMs ? known.page : undefined
}
