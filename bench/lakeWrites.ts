/**
 * Durable writes for `npm run bench:lake`: creates against the server process from a
 * load generator in a process of its own (lakeWriters.child.ts), sequentially (one writer) and
 * with concurrent writers, with @sanity/client and with a lighter node:http client sending the
 * same request; raw node:sqlite commits for comparison; and a durability check: the server is
 * killed with SIGKILL and the documents on disk are counted against the creates it acknowledged.
 */
import {execFile} from 'node:child_process'
import {readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {promisify} from 'node:util'
import {cpuSeconds} from './cpu.ts'
import {rawCommits, type Rate} from './lakeLoad.ts'
import type {WriterReport} from './lakeWriters.child.ts'
import {startServerProcess} from './serverProcess.ts'
import {percentile} from './stats.ts'
import {seedDataDir, syntheticPost} from './synthetic.ts'

const run = promisify(execFile)
const child = new URL('./lakeWriters.child.ts', import.meta.url).pathname

export type WriteClient = 'sanity' | 'http'

export interface WriteRate extends Rate {
  client: WriteClient
  writers: number
  processes: number
  /** Server CPU (user + system, all threads) per acknowledged mutation, ms. */
  serverCpuMs: number
  /** Load generators' CPU per acknowledged mutation, ms. */
  clientCpuMs: number
}

export interface WriteResults {
  /** @sanity/client, one writer and `writers` concurrent ones. */
  sequential: WriteRate
  concurrent: WriteRate
  /** The same requests from node:http: what the server takes when the client costs little. */
  httpSequential: WriteRate
  httpConcurrent: WriteRate
  raw: Rate
  /** Creates acknowledged during the whole run (warm-up included). */
  acknowledged: number
  /** Documents those creates left in the SQLite file after SIGKILL. */
  stored: number
}

/** Runs `writers` concurrent writers split over `processes` load-generator processes. */
async function measure(
  url: string,
  token: string,
  pid: number,
  options: {
    client: WriteClient
    writers: number
    processes: number
    seconds: number
    prefix: string
  },
): Promise<WriteRate> {
  const per = Math.ceil(options.writers / options.processes)
  const cpu0 = cpuSeconds([pid])
  const reports = await Promise.all(
    Array.from({length: options.processes}, async (_, i) => {
      const args = [
        child,
        url,
        token,
        String(per),
        String(options.seconds),
        `${options.prefix}-${i}`,
        options.client,
      ]
      const {stdout} = await run(process.execPath, args, {maxBuffer: 64 * 1024 * 1024})
      return JSON.parse(stdout) as WriterReport
    }),
  )
  const serverCpu = (cpuSeconds([pid]) - cpu0) * 1000
  const times = reports.flatMap((r) => r.times)
  const count = times.length
  const wall = Math.max(...reports.map((r) => r.seconds))
  return {
    client: options.client,
    writers: per * options.processes,
    processes: options.processes,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    perSecond: count / wall,
    count,
    errors: reports.reduce((sum, r) => sum + r.errors, 0),
    serverCpuMs: serverCpu / count,
    clientCpuMs: reports.reduce((sum, r) => sum + r.cpuMs, 0) / count,
  }
}

/** Counts the documents whose id starts with one of the writers' prefixes, straight from disk. */
function countStored(dataDir: string): number {
  const db = new DatabaseSync(join(dataDir, 'lake.sqlite'), {readOnly: true})
  try {
    return Number(
      db.prepare("SELECT COUNT(*) AS n FROM documents WHERE id LIKE 'bench-%'").get()?.n,
    )
  } finally {
    db.close()
  }
}

/** The whole write benchmark on a fresh 1k-post lake; `writers` concurrent writers in `processes`. */
export async function measureWrites(options: {
  seconds: number
  writers: number
  processes: number
}): Promise<WriteResults> {
  const doc = syntheticPost(99_999)
  // Raw commits before and after the lake runs; the faster of the two is the reference, so a
  // slow moment of the disk never flatters the ratio.
  const rawBefore = await rawCommits(options.seconds, doc)
  const {dataDir} = seedDataDir(1000)
  const token = readFileSync(join(dataDir, 'owner-token'), 'utf8').trim()
  const server = await startServerProcess({dataDir, seed: false})
  try {
    const {url, pid} = server
    // As in production, where the site's reads have started the query worker: each commit is
    // mirrored to its replica.
    const query = await fetch(`${url}/v2023-07-29/data/query/production?query=count(*)`, {
      headers: {authorization: `Bearer ${token}`},
    })
    if (!query.ok) throw new Error(`warm-up query failed: ${query.status}`)
    const rates: WriteRate[] = []
    const step = async (
      client: WriteClient,
      writers: number,
      processes: number,
      seconds: number,
    ) => {
      const rate = await measure(url, token, pid, {
        client,
        writers,
        processes,
        seconds,
        prefix: `bench-${client}-${writers}-${rates.length}`,
      })
      rates.push(rate)
      return rate
    }
    await step('sanity', options.writers, options.processes, 1) // warm-up: JIT, connections
    const sequential = await step('sanity', 1, 1, options.seconds)
    const concurrent = await step('sanity', options.writers, options.processes, options.seconds)
    const httpSequential = await step('http', 1, 1, options.seconds)
    const httpConcurrent = await step('http', options.writers, options.processes, options.seconds)
    // Every acknowledged create must be on disk, even when the server dies without warning.
    process.kill(pid, 'SIGKILL')
    await server.stop()
    const stored = countStored(dataDir)
    const rawAfter = await rawCommits(options.seconds, doc)
    const raw = rawAfter.perSecond > rawBefore.perSecond ? rawAfter : rawBefore
    const acknowledged = rates.reduce((sum, rate) => sum + rate.count, 0)
    return {sequential, concurrent, httpSequential, httpConcurrent, raw, acknowledged, stored}
  } finally {
    await server.stop()
    rmSync(dataDir, {recursive: true, force: true})
  }
}
