/**
 * `npm run bench:lake`: the local Content Lake under load (issue #2). For 100 / 1k / 10k posts,
 * the blog-list query uncached (owner token: authenticated reads bypass the response cache),
 * CDN-cached (anonymous) and evaluated by groq-js in process (the floor); durable mutations/s next
 * to raw node:sqlite commits/s; then the whole GROQ test suite through the HTTP API.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {createClient} from '@sanity/client'
import {loadSuite, runSuite} from '../server/lake/groqSuite.ts'
import {startLakeUnderTest} from '../server/lake/testing.ts'
import {groqFloor, load, rawCommits, repeat, type Rate} from './lakeLoad.ts'
import {startServerProcess} from './serverProcess.ts'
import {fmt} from './stats.ts'
import {seedDataDir, syntheticPost} from './synthetic.ts'
import type {Section, Table} from './types.ts'

const sizes = [100, 1000, 10_000]
const seconds = Number(process.env.BENCH_SECONDS || 3)
const concurrency = 16
/** The blog list's first page and the tab's count, in one request as the site makes it. */
export const blogListQuery =
  '{"posts": *[_type == "post"] | order(date desc)[0...6]{title, "slug": slug.current, date, excerpt, category}, "total": count(*[_type == "post"])}'

interface SizeResult {
  posts: number
  floor: Rate
  uncached: Rate
  uncachedLoaded: Rate
  cached: Rate
  cachedLoaded: Rate
}

async function measureSize(posts: number): Promise<SizeResult> {
  const {dataDir} = seedDataDir(posts)
  const token = readFileSync(join(dataDir, 'owner-token'), 'utf8').trim()
  const server = await startServerProcess({dataDir, seed: false})
  try {
    const url = `${server.url}/v2023-07-29/data/query/production?query=${encodeURIComponent(blogListQuery)}&perspective=published&returnQuery=false`
    const auth = {authorization: `Bearer ${token}`}
    const check = await fetch(url, {headers: auth})
    if (!check.ok) throw new Error(`blog-list query failed: ${check.status} ${await check.text()}`)
    const docs = Array.from({length: posts}, (_, i) => syntheticPost(i + 1))
    await load(url, {connections: 4, seconds: 1, headers: auth}) // warm the JIT and the worker
    const floor = await groqFloor(blogListQuery, docs, seconds)
    const uncached = await load(url, {connections: 1, seconds, headers: auth})
    const uncachedLoaded = await load(url, {connections: concurrency, seconds, headers: auth})
    const cached = await load(url, {connections: 1, seconds})
    const cachedLoaded = await load(url, {connections: concurrency, seconds})
    return {posts, floor, uncached, uncachedLoaded, cached, cachedLoaded}
  } finally {
    await server.stop()
  }
}

async function measureWrites(): Promise<{mutations: Rate; raw: Rate}> {
  const {dataDir} = seedDataDir(1000)
  const token = readFileSync(join(dataDir, 'owner-token'), 'utf8').trim()
  const server = await startServerProcess({dataDir, seed: false})
  try {
    const client = createClient({projectId: 'scriptorium', dataset: 'production', apiVersion: '2023-07-29', apiHost: server.url, useProjectHostname: false, useCdn: false, token})
    const doc = syntheticPost(99_999)
    let n = 0
    const mutations = await repeat(seconds, () => client.create({...doc, _id: `bench-write-${n++}`}))
    const raw = await rawCommits(seconds, doc)
    return {mutations, raw}
  } finally {
    await server.stop()
  }
}

const ms = (value: number) => fmt(value, 2)
const rps = (rate: Rate) => fmt(rate.perSecond, 0)

export async function run(): Promise<Section> {
  const results: SizeResult[] = []
  for (const posts of sizes) {
    console.log(`[lake] ${posts} posts…`)
    results.push(await measureSize(posts))
  }
  console.log('[lake] writes…')
  const writes = await measureWrites()
  console.log('[lake] GROQ test suite…')
  const t = await startLakeUnderTest()
  const suite = loadSuite()
  const conformance = await runSuite(t, suite, suite.tests).finally(() => t.stop())

  const reads: Table = {
    title: `Blog-list query (first page + count), ${seconds} s per cell; latency at 1 connection, req/s at 1 and ${concurrency}`,
    columns: ['posts', 'floor p50 / p99 ms', 'floor ops/s', 'uncached p50 / p99 ms', 'uncached req/s (1 / 16)', 'uncached ÷ floor (p50)', 'cached p50 / p99 ms', 'cached req/s (1 / 16)'],
    rows: results.map((r) => [
      r.posts,
      `${ms(r.floor.p50)} / ${ms(r.floor.p99)}`,
      fmt(r.floor.perSecond, 0),
      `${ms(r.uncached.p50)} / ${ms(r.uncached.p99)}`,
      `${rps(r.uncached)} / ${rps(r.uncachedLoaded)}`,
      fmt(r.uncached.p50 / r.floor.p50, 2),
      `${ms(r.cached.p50)} / ${ms(r.cached.p99)}`,
      `${rps(r.cached)} / ${rps(r.cachedLoaded)}`,
    ]),
  }
  const writesTable: Table = {
    title: `Durable writes, sequential, ${seconds} s each (1k-post lake)`,
    columns: ['what', 'per second', 'p50 ms', 'p99 ms'],
    rows: [
      ['client.create (HTTP, SQLite WAL + synchronous=FULL)', fmt(writes.mutations.perSecond, 0), ms(writes.mutations.p50), ms(writes.mutations.p99)],
      ['raw node:sqlite commit (WAL + synchronous=FULL)', fmt(writes.raw.perSecond, 0), ms(writes.raw.p50), ms(writes.raw.p99)],
    ],
  }
  const c = conformance
  const suiteTable: Table = {
    title: 'GROQ test suite through the HTTP API vs groq-js in process',
    columns: ['tests', 'same as groq-js', 'different', 'stopped at time limit', 'invalid refused', 'valid = suite result', 'no dataset', 'seconds'],
    rows: [[c.tests, c.same, c.different, c.timedOut, `${c.invalidRejected} / ${c.invalid}`, `${c.validAgreeingWithSuite} / ${c.valid}`, c.withoutDataset, fmt(c.ms / 1000, 0)]],
  }
  const at1k = results.find((r) => r.posts === 1000)
  const ratio = at1k ? at1k.uncached.p50 / at1k.floor.p50 : Number.NaN
  const bestCached = Math.max(...results.map((r) => r.cachedLoaded.perSecond))
  const writeRatio = writes.mutations.perSecond / writes.raw.perSecond
  const notes = [
    `Uncached at 1k posts is ${fmt(ratio, 2)}× the in-process floor (target ≤ 2×): ${ratio <= 2 ? 'met' : 'missed'}.`,
    `CDN-cached reaches ${fmt(bestCached, 0)} req/s at ${concurrency} connections (target ≥ 10,000): ${bestCached >= 10_000 ? 'met' : 'missed'}.`,
    `Durable mutations run at ${fmt(writeRatio, 2)}× raw SQLite commits (target ≥ 0.5×): ${writeRatio >= 0.5 ? 'met' : 'missed'}.`,
    `GROQ suite: ${c.different} differences from groq-js in ${c.tests - c.withoutDataset - c.timedOut} compared tests (${c.timedOut} stopped by the 10 s limit); groq-js itself accepts ${c.invalid - c.invalidRejected} of the suite's invalid queries and matches the suite's expected result in ${c.validAgreeingWithSuite} of ${c.valid} valid ones.`,
    'Errors during load: ' + results.map((r) => `${r.posts}: ${r.uncached.errors + r.uncachedLoaded.errors + r.cached.errors + r.cachedLoaded.errors}`).join(', ') + '.',
  ]
  if (c.differences.length > 0) notes.push(`First differences: ${c.differences.slice(0, 5).join(' | ')}`)
  return {name: 'lake', title: 'Local Content Lake', tables: [reads, writesTable, suiteTable], notes, data: {results, writes, conformance: {...c, differences: c.differences.slice(0, 50)}}}
}
