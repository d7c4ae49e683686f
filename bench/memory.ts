/**
 * Memory benchmark: the server's resident memory (VmRSS) and peak (VmHWM) from /proc, idle, while
 * it runs the server benchmark's load (without nginx), and after it — ten times over, so that a
 * leak shows as memory that keeps climbing from one round to the next. After each round the
 * server's own V8 heap is read after a full GC (bench/inspector.ts): live objects that keep
 * growing are a leak; a heap V8 has enlarged and keeps is not.
 */
import {freePort} from '../scripts/freePort.ts'
import {connectHeapProbe, inspectorOptions, type HeapFigures} from './inspector.ts'
import {measure} from './server.ts'
import {memoryOf, startServerProcess} from './serverProcess.ts'
import {fetchPage, newestPostSlug} from './site.ts'
import {fmt} from './stats.ts'
import type {Section} from './types.ts'

const rounds = Number(process.env.BENCH_MEMORY_ROUNDS || 10)
const roundSeconds = Number(process.env.BENCH_MEMORY_SECONDS || 3)
/**
 * How far the highest settled RSS of the later half of the rounds may lie above that of the
 * earlier half for memory to count as levelled off: V8 resizes its heap by tens of MiB from round
 * to round, so one round against the next says little; a leak raises every later round.
 */
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
  const port = await freePort()
  const server = await startServerProcess({env: {NODE_OPTIONS: inspectorOptions(port)}})
  const heap = await connectHeapProbe(port)
  try {
    const slug = await newestPostSlug(server.url)
    const routes = ['/', '/blog', `/blog/${slug}`]
    const start = memoryOf(server.pid)
    for (const route of routes) await fetchPage(server.url + route)
    const idle = await settled(server.pid)
    const rows: (string | number)[][] = [
      ['just started', '–', fmt(mib(start.rss)), '–', fmt(mib(start.hwm)), '–', '–'],
      ['idle (each route served once)', '–', fmt(mib(idle.rss)), '–', fmt(mib(idle.hwm)), '–', '–'],
    ]
    const afters: number[] = []
    const peaks: number[] = []
    const heaps: HeapFigures[] = []
    for (let round = 1; round <= rounds; round++) {
      console.log(`  round ${round}/${rounds}`)
      const peak = await peakDuring(server.pid, () =>
        measure(server, routes, undefined, roundSeconds),
      )
      const after = await settled(server.pid)
      // Read after RSS: the forced GC is ours, not the server's, and must not flatter the RSS.
      const live = await heap.afterGc()
      afters.push(after.rss)
      peaks.push(peak)
      heaps.push(live)
      rows.push([
        `round ${round}`,
        fmt(mib(peak)),
        fmt(mib(after.rss)),
        fmt(mib(after.rss - idle.rss)),
        fmt(mib(after.hwm)),
        `${fmt(mib(live.heapUsed))} / ${fmt(mib(live.heapTotal))}`,
        fmt(mib(after.rss - (live.heapTotal - live.heapUsed))),
      ])
    }
    const half = Math.floor(rounds / 2)
    /** How much the later half's highest value lies above the earlier half's, in MiB. */
    const riseOf = (values: number[]) =>
      mib(Math.max(...values.slice(half)) - Math.max(...values.slice(0, half)))
    // What the process uses: RSS less the heap V8 holds free for later allocations (heapTotal −
    // heapUsed after a GC). V8 enlarges that reserve in steps as the load's allocation rate
    // asks and keeps it; a leak, in JS or native memory, grows what is in use.
    // Each measure alone misreads V8 resizing its reserve: enlarging it raises RSS, not what is in
    // use; shrinking it (round 9 of a run on 2026-11-26: heapTotal 169 → 39 MiB, RSS unchanged)
    // raises what is in use, not RSS. A leak raises both, or the live heap.
    const inUse = afters.map((rss, i) => rss - (heaps[i].heapTotal - heaps[i].heapUsed))
    const rise = riseOf(inUse)
    const rssRise = riseOf(afters)
    const heapRise = mib(heaps[heaps.length - 1].heapUsed - heaps[0].heapUsed)
    const levelsOff =
      heapRise <= growthLimitMiB && (rise <= growthLimitMiB || rssRise <= growthLimitMiB)
    const sign = (value: number) => `${value >= 0 ? '+' : ''}${fmt(value)} MiB`
    const notes = [
      `${levelsOff ? `Levels off at ${fmt(mib(Math.max(...afters)))} MiB RSS` : 'STILL GROWING'}: in rounds ${half + 1}–${rounds} against rounds 1–${half}, the highest settled RSS ${sign(rssRise)}, memory in use (settled RSS less V8's free heap; it ranged ${fmt(mib(Math.min(...inUse)))}–${fmt(mib(Math.max(...inUse)))} MiB) ${sign(rise)}, the live heap ${sign(heapRise)} (limit ${growthLimitMiB} MiB; a leak raises the live heap, or both of the others: one alone is V8 resizing its heap reserve). Target (issue #7, no growth across repeated runs): ${levelsOff ? 'MET' : 'MISSED'}.`,
      `Plain settled RSS: ${sign(rssRise)} from the earlier half's highest to the later half's (${afters.map((rss) => fmt(mib(rss), 0)).join(', ')} MiB); V8's heap reserve (heapTotal after GC) went ${fmt(mib(heaps[0].heapTotal), 0)} → ${fmt(mib(heaps[heaps.length - 1].heapTotal), 0)} MiB.`,
      `Live V8 heap after a full GC: ${fmt(mib(heaps[0].heapUsed))} MiB after round 1, ${fmt(mib(heaps[heaps.length - 1].heapUsed))} after round ${rounds} (${sign(heapRise)}): no live objects pile up.`,
      `Peak under load ${fmt(mib(Math.min(...peaks)))}–${fmt(mib(Math.max(...peaks)))} MiB.`,
      `Each round is the server benchmark's load without nginx (${routes.length} routes × 1/16/64 connections, ${roundSeconds} s per cell), then 1 s idle.`,
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
            'V8 heap used / total after GC',
            'in use (RSS less free V8 heap)',
          ],
          rows,
        },
      ],
      notes,
      data: {start, idle, afters, peaks, heaps, roundSeconds},
    }
  } finally {
    heap.close()
    await server.stop()
  }
}
