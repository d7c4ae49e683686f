import {describe, expect, it} from 'vitest'
import {Tally, type CountRow, type View} from './tally.ts'

/** A small deterministic generator, so a failure names a sequence that can be run again. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
}

const pick = <T>(next: () => number, values: readonly T[]): T =>
  values[Math.floor(next() * values.length)]

/** The counts as the docs define them: each view counted in each of its values, each visitor once a day per value. */
function expected(views: View[]): Map<string, {pageviews: number; visitors: number}> {
  const rows = new Map<string, {pageviews: number; visitors: number}>()
  const seen = new Set<string>()
  for (const view of views) {
    const hour = new Date(view.time).toISOString().slice(0, 13)
    const values: Array<[string, string]> = view.notFound
      ? [['notfound', view.path]]
      : [
          ['total', ''],
          ['page', view.path],
          ['referrer', view.referrer],
          ...(view.campaign === undefined ? [] : [['campaign', view.campaign] as [string, string]]),
          ['device', view.device],
          ['browser', view.browser],
        ]
    for (const [dimension, value] of values) {
      const key = `${hour}|${dimension}|${value}`
      const row = rows.get(key) ?? {pageviews: 0, visitors: 0}
      row.pageviews++
      const pair = `${hour.slice(0, 10)}|${dimension}|${value}|${view.visitor}`
      if (!seen.has(pair)) {
        seen.add(pair)
        row.visitors++
      }
      rows.set(key, row)
    }
  }
  return rows
}

function summed(batches: CountRow[][]): Map<string, {pageviews: number; visitors: number}> {
  const rows = new Map<string, {pageviews: number; visitors: number}>()
  for (const row of batches.flat()) {
    const key = `${row.hour}|${row.dimension}|${row.value}`
    const sum = rows.get(key) ?? {pageviews: 0, visitors: 0}
    sum.pageviews += row.pageviews
    sum.visitors += row.visitors
    rows.set(key, sum)
  }
  return rows
}

describe('the tally', () => {
  it('counts every view and each visitor once a day per value, over hours, days and batches', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const next = random(seed)
      const tally = new Tally()
      const views: View[] = []
      const batches: CountRow[][] = []
      let time = Date.parse('2026-11-27T21:00:00Z')
      for (let i = 0; i < 3_000; i++) {
        // Mostly seconds apart, now and then an hour or more: batches, hours and a day change.
        time +=
          next() < 0.01 ? 3_600_000 * (1 + Math.floor(next() * 5)) : Math.floor(next() * 20_000)
        const view: View = {
          time,
          visitor: pick(next, ['a', 'b', 'c', 'd']),
          path: pick(next, ['/', '/blog', '/blog/one']),
          notFound: next() < 0.1,
          referrer: pick(next, ['direct', 'news.example', 'mail.example']),
          campaign: pick(next, [undefined, undefined, 'spring / mail']),
          device: pick(next, ['phone', 'desktop']),
          browser: pick(next, ['Firefox', 'Chrome']),
        }
        tally.add(view)
        views.push(view)
        if (next() < 0.02) batches.push(tally.drain(time).counts)
      }
      batches.push(tally.drain(time).counts)
      expect(summed(batches)).toEqual(expected(views))
    }
  })
})
