import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import autocannon from 'autocannon'
import {evaluate, parse} from 'groq-js'
import type {Doc} from '../server/lake/index.ts'
import {percentile} from './stats.ts'

/** Latency percentiles (ms) and throughput of one measurement. */
export interface Rate {
  p50: number
  p99: number
  perSecond: number
  count: number
  errors: number
}

/** A bounded autocannon run against a loopback URL, with headers (e.g. a bearer token). */
export function load(
  url: string,
  options: {connections: number; seconds: number; headers?: Record<string, string>},
): Promise<Rate> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url))
    throw new Error(`refusing to load a non-loopback URL: ${url}`)
  const times: number[] = []
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        duration: options.seconds,
        headers: options.headers,
        pipelining: 1,
        timeout: 20,
      },
      (error, result) => {
        if (error) return reject(error)
        const count = result.requests.total
        resolve({
          p50: percentile(times, 50),
          p99: percentile(times, 99),
          perSecond: count / options.seconds,
          count,
          errors: result.errors + result.timeouts + result.non2xx,
        })
      },
    )
    // autocannon's histogram keeps whole milliseconds; the raw times keep sub-ms latencies apart.
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime))
  })
}

/** Calls `work` back to back for `seconds`, timing each call. */
export async function repeat(
  seconds: number,
  work: () => Promise<unknown> | unknown,
): Promise<Rate> {
  const times: number[] = []
  const until = performance.now() + seconds * 1000
  const start = performance.now()
  while (performance.now() < until) {
    const t0 = performance.now()
    await work()
    times.push(performance.now() - t0)
  }
  const total = (performance.now() - start) / 1000
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    perSecond: times.length / total,
    count: times.length,
    errors: 0,
  }
}

/** The floor: groq-js evaluating the same (pre-parsed) query over the same documents in process. */
export function groqFloor(query: string, docs: Doc[], seconds: number): Promise<Rate> {
  const tree = parse(query)
  return repeat(seconds, async () => (await evaluate(tree, {dataset: docs})).get())
}

/**
 * Raw durable commits: node:sqlite with WAL and synchronous=FULL, one INSERT per transaction of a
 * document-sized JSON row — what one lake commit cannot beat.
 */
export function rawCommits(seconds: number, doc: Doc): Promise<Rate> {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-rawsqlite-'))
  const db = new DatabaseSync(join(dir, 'raw.sqlite'))
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE docs (id TEXT PRIMARY KEY, json TEXT NOT NULL)',
  )
  const insert = db.prepare('INSERT INTO docs (id, json) VALUES (?, ?)')
  let n = 0
  return repeat(seconds, () => {
    const id = `raw-${n++}`
    db.exec('BEGIN IMMEDIATE')
    insert.run(id, JSON.stringify({...doc, _id: id}))
    db.exec('COMMIT')
  }).finally(() => {
    db.close()
    rmSync(dir, {recursive: true, force: true})
  })
}
