import {describe, expect, it} from 'vitest'
import {LiveReports} from './liveReports.ts'
import {liveWindowMs, Tally} from './tally.ts'
import {aView, testNoon} from './testing.ts'

const noon = testNoon
const view = (visitor: string, time: number) => aView({visitor, time})

describe('the live figure across site processes', () => {
  it('sums each process’s visitors of the last five minutes, and lets them age out', () => {
    const first = new Tally()
    const second = new Tally()
    first.add(view('a', noon - 60_000))
    first.add(view('b', noon - 10_000))
    first.add(view('a', noon - 5_000))
    second.add(view('c', noon - 200_000))
    const reports = new LiveReports()
    reports.add(first.drain(noon).live!)
    reports.add(second.drain(noon).live!)
    expect(reports.visitors(noon)).toBe(3)
    // c was last seen 200 s before noon: gone 100 s after it; a and b five minutes after theirs.
    expect(reports.visitors(noon + 101_000)).toBe(2)
    expect(reports.visitors(noon + liveWindowMs)).toBe(0)
  })

  it('names no visitor, and keeps the newer report of a process', () => {
    const tally = new Tally()
    tally.add(view('secret-hash', noon))
    const older = tally.drain(noon).live!
    expect(JSON.stringify(older)).not.toContain('secret-hash')
    tally.add(view('other-hash', noon + 1_000))
    const newer = tally.drain(noon + 1_000).live!
    const reports = new LiveReports()
    reports.add(newer)
    reports.add(older) // a batch retried from a backlog
    expect(reports.visitors(noon + 1_000)).toBe(2)
    // Nobody live: the report is empty, and an idle flush sends nothing (flusher.ts).
    expect(tally.drain(noon + liveWindowMs + 2_000).live?.seen).toEqual([])
  })
})
