/**
 * Memory benchmark: the server's resident memory (VmRSS) and peak (VmHWM) from /proc, idle, while
 * it runs the server benchmark's load (without nginx), and after it — three times over, so that a
 * leak shows as memory that keeps climbing from one round to the next.
 */
import {measure} from './server.ts'
import {memoryOf, startServerProcess} from './serverProcess.ts'
import {fetchPage, newestPostSlug} from './site.ts'
import {fmt} from './stats.ts'
import type {Section} from './types.ts'

const rounds = 3
const roundSeconds = Number(process.env.BENCH_MEMORY_SECONDS || 3)
/** Growth between the first and last round's settled RSS that we call a leak (GC noise is smaller). */
const growthLimitMiB = 10

const mib = (bytes: number) => bytes / 2 ** 20

/** Samples RSS every 50 ms while `work` runs; returns the highest sample. */
async function peakDuring(pid: number, work: () => Promise<unknown>): Promise<number> {
  let peak = memoryOf(pid).rss
  const timer = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 50)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return Math.max(peak, memoryOf(pid).rss)
}

/** After load, give the server's GC a moment of idleness before reading RSS (a measurement, not a sync). */
async function settled(pid: number): Promise<{rss: number; hwm: number}> {
  await new Promise((resolve) => setTimeout(resolve, 1000))
  return memoryOf(pid)
}

export async function run(): Promise<Section> {
  const server = await startServerProcess()
  try {
    const slug = await newestPostSlug(server.url)
    const routes = ['/', '/blog', `/blog/${slug}`]
    const start = memoryOf(server.pid)
    for (const route of routes) await fetchPage(server.url + route)
    const idle = await settled(server.pid)
    const rows: (string | number)[][] = [
      ['just started', '–', fmt(mib(start.rss)), '–', fmt(mib(start.hwm))],
      ['idle (each route served once)', '–', fmt(mib(idle.rss)), '–', fmt(mib(idle.hwm))],
    ]
    const afters: number[] = []
    const peaks: number[] = []
    for (let round = 1; round <= rounds; round++) {
      console.log(`  round ${round}/${rounds}`)
      const peak = await peakDuring(server.pid, () =>
        measure(server, routes, undefined, roundSeconds),
      )
      const after = await settled(server.pid)
      afters.push(after.rss)
      peaks.push(peak)
      rows.push([
        `round ${round}`,
        fmt(mib(peak)),
        fmt(mib(after.rss)),
        fmt(mib(after.rss - idle.rss)),
        fmt(mib(after.hwm)),
      ])
    }
    const growth = mib(afters[afters.length - 1] - afters[0])
    // V8 grows its heap to a plateau over the first rounds; a leak keeps climbing in every round.
    const lastStep = mib(afters[afters.length - 1] - afters[afters.length - 2])
    const sign = (value: number) => `${value >= 0 ? '+' : ''}${fmt(value)} MiB`
    const notes = [
      `Settled RSS from round 1 to round ${rounds}: ${sign(growth)}; last round alone: ${sign(lastStep)} ` +
        `(${lastStep <= growthLimitMiB ? `plateau: no growth beyond ${growthLimitMiB} MiB of GC noise in the last round` : 'STILL GROWING: look for a leak'}); ` +
        `peak under load ${fmt(mib(Math.min(...peaks)))}–${fmt(mib(Math.max(...peaks)))} MiB.`,
      `Each round is the server benchmark's load without nginx (${routes.length} routes × 1/16/64 connections, ${roundSeconds} s per cell).`,
    ]
    return {
      name: 'memory',
      title: 'Server memory (MiB): idle, under load, after',
      tables: [
        {
          title: 'Resident memory of the server process (/proc/<pid>/status)',
          columns: [
            'phase',
            'peak RSS under load',
            'RSS after (1 s idle)',
            'growth vs idle',
            'VmHWM (peak so far)',
          ],
          rows,
        },
      ],
      notes,
      data: {start, idle, afters, peaks, roundSeconds},
    }
  } finally {
    await server.stop()
  }
}
