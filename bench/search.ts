/**
 * Search benchmark (issue 25): at 1k and 10k synthetic posts, the site's search query
 * (`text::query()`, shared/siteQueries.ts `searchQuery`, narrowed by the text index) for a word
 * in every post and for a word in one post, against a full-scan `match` query over the same
 * fields, server side and uncached (each request carries a distinct unused param, so no cache
 * answers it); the `/search?q=` page itself, uncached, the issue's target; the process's first
 * page render; Lighthouse mobile on it.
 */
import {rmSync} from 'node:fs'
import {ensureChromium} from '../scripts/chromium.ts'
import {lighthouse, type LighthouseRun} from './lighthouse.ts'
import {listedPost, searchQuery} from '../shared/siteQueries.ts'
import {cpuSeconds} from './cpu.ts'
import {startServerProcess} from './serverProcess.ts'
import {queryUrl} from './site.ts'
import {fmt, percentile} from './stats.ts'
import {seedDataDir} from './synthetic.ts'
import {timedGet} from './timedGet.ts'
import type {Cell, Section} from './types.ts'

const sizes = (process.env.BENCH_SEARCH_SIZES || '1000,10000').split(',').map(Number)
/**
 * Requests per target row. A nearest-rank p99 (bench/stats.ts `percentile`) of 100 samples is the
 * second slowest, so two pauses of a garbage collector in a row of 100 decided it, and the same
 * code gave 5.9 and 20.2 ms in two runs (docs/search.md, "Speed"); of 1,000 it is the tenth
 * slowest, an estimate of the 99th percentile rather than of the worst requests, which the table
 * shows apart (its max column).
 */
const runs = 1000
/** The full scan's row (~270 ms a request at 10k posts) is a comparison, not a target. */
const scanRuns = 100
/** Unrecorded pages before the page row. */
const pageWarmUpRuns = 100
/** In every synthetic post (bench/synthetic.ts's vocabulary): the worst case for a search. */
const word = 'walnut'
/** The number in post 420's title: one post at either size, the case an index is for. */
const rareWord = '00420'
const pageRow = `/search?q=${word} page, a word in every post (rendered, uncached)`
const commonRow = 'search query (text::query), a word in every post'
const rareRow = 'search query (text::query), a word in one post'
const scanRow = 'full-scan match query, a word in every post'

const fullScanQuery = `{
  "posts": *[${listedPost} && [title, excerpt, pt::text(body)] match $q] | order(date desc, _id asc) [$start...$end] {_id, title},
  "total": count(*[${listedPost} && [title, excerpt, pt::text(body)] match $q])
}`

interface Row {
  posts: number
  what: string
  p50: number
  p99: number
  max: number
}

function rowOf(posts: number, what: string, times: number[]): Row {
  return {
    posts,
    what,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: Math.max(...times),
  }
}

/**
 * Each query worker folds the documents' texts the site's search reads in chunks after it loads
 * (server/lake/queryPool/queryWorker.ts), or on a search that comes first. A few warm-up requests
 * reach every worker; the figures are the warm ones, the first request's time is reported too.
 */
async function warmUp(url: (run: number) => string): Promise<{failures: number; firstMs: number}> {
  let failures = 0
  let firstMs = Number.NaN
  for (let run = 0; run < 8; run++) {
    const answer = await timedGet(url(1000 + run))
    if (run === 0) firstMs = answer.ms
    if (answer.status !== 200) failures++
  }
  return {failures, firstMs}
}

const firstSearches: string[] = []
const settles: string[] = []
const afterIdles: string[] = []

/**
 * Waits until the server's process (its query workers are its threads) has used under 10% of a
 * core for a whole second (4 windows of 250 ms in a row), at most 60 s: the workers warm up one
 * at a time (docs/search.md), and a worker stopped over its budget during the first searches is
 * replaced by a cold one, so after the warm-up searches another may still be loading or folding
 * 10k posts; a figure taken meanwhile on two cores measures that, not a search. Returns how long
 * it waited, in ms.
 */
async function settled(pid: number): Promise<number> {
  const start = performance.now()
  let before = cpuSeconds([pid])
  let quiet = 0
  while (quiet < 4 && performance.now() - start < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const now = cpuSeconds([pid])
    quiet = now - before < 0.025 ? quiet + 1 : 0
    before = now
  }
  return performance.now() - start
}

let failed = 0
let lighthouseRun: LighthouseRun | undefined
let lighthouseError: string | undefined

/**
 * The page's own cap is 40 searches a client in 20 s (server/render/searchRate.ts): the page rows
 * come from another loopback address every 20 requests, as that many readers would.
 */
const readerAddress = (run: number) => `127.0.0.${10 + Math.floor(run / 20)}`

async function timed(
  url: (run: number) => string,
  from?: (run: number) => string,
  count = runs,
): Promise<number[]> {
  const times: number[] = []
  for (let run = 0; run < count; run++) {
    const answer = await timedGet(url(run), undefined, from?.(run))
    // An answer over the budget (a 400) is recorded as its time and counted below.
    if (answer.status !== 200) failed++
    times.push(answer.ms)
  }
  return times
}

/**
 * `warmUpRuns` requests of the kind first, unrecorded, then `runs` recorded: every row starts as
 * the page row does, in step, not on the first requests after the settling second, which on this
 * machine are slower for any route (/robots.txt 0.6 → 2 ms after 100 ms idle; a search 2–3× its
 * median for a few requests). That first request after idle is reported on its own.
 */
const warmUpRuns = 20

async function warmThenTimed(url: (run: number) => string, count = runs): Promise<number[]> {
  for (let run = 0; run < warmUpRuns; run++) await timedGet(url(100_000 + run))
  return timed(url, undefined, count)
}

async function measure(posts: number): Promise<Row[]> {
  const {dataDir} = seedDataDir(posts)
  const server = await startServerProcess({dataDir, seed: false})
  try {
    const params = {q: word, start: 0, end: 6}
    const rows: Row[] = []
    const cold = await warmUp((run) => queryUrl(server.url, searchQuery, {...params, nonce: run}))
    if (cold.failures > 0)
      console.log(`  ${posts} posts: ${cold.failures} of 8 warm-up searches over budget`)
    firstSearches.push(
      `${posts} posts: ${fmt(cold.firstMs)} ms${cold.failures > 0 ? ` (${cold.failures} of 8 warm-up searches over budget)` : ''}`,
    )
    settles.push(`${posts} posts: ${fmt((await settled(server.pid)) / 1000, 1)} s`)
    const afterIdle = await timedGet(queryUrl(server.url, searchQuery, {...params, nonce: -1}))
    afterIdles.push(`${posts} posts: ${fmt(afterIdle.ms)} ms`)
    const search = await warmThenTimed((run) =>
      queryUrl(server.url, searchQuery, {...params, nonce: run}),
    )
    rows.push(rowOf(posts, commonRow, search))
    const rare = await warmThenTimed((run) =>
      queryUrl(server.url, searchQuery, {...params, q: rareWord, nonce: run}),
    )
    rows.push(rowOf(posts, rareRow, rare))
    const page = await timedGet(`${server.url}/search?q=${word}`)
    rows.push(
      rowOf(posts, `/search?q=${word} (the process's first page render, HTTP ${page.status})`, [
        page.ms,
      ]),
    )
    // The page caches by its query (server/render/pageAddress.ts), so each request searches
    // another way for the same posts: the word, less a word in none of them.
    const pageUrl = (run: number) => `${server.url}/search?q=${word}+-zq${posts}x${run}`
    await timed(
      (run) => pageUrl(runs + run),
      (run) => readerAddress(runs + run),
      pageWarmUpRuns,
    )
    const pages = await timed(pageUrl, readerAddress)
    rows.push(rowOf(posts, pageRow, pages))
    // Last: 120 scans of every post leave its worker garbage (~280 ms of groq-js a scan at 10k
    // posts) whose collection, 10–27 ms on that thread, landed in whichever row came next.
    const scan = await warmThenTimed(
      (run) => queryUrl(server.url, fullScanQuery, {...params, nonce: run}),
      scanRuns,
    )
    rows.push(rowOf(posts, scanRow, scan))
    for (const each of rows)
      console.log(
        `  ${posts} posts, ${each.what}: p50 ${fmt(each.p50)} ms, p99 ${fmt(each.p99)} ms, max ${fmt(each.max)} ms`,
      )
    if (posts === Math.min(...sizes)) {
      try {
        lighthouseRun = await lighthouse(
          `${server.url}/search?q=${word}`,
          'mobile',
          ensureChromium(),
        )
      } catch (error) {
        lighthouseError = (error as Error).message.split('\n')[0]
      }
    }
    return rows
  } finally {
    await server.stop()
    rmSync(dataDir, {recursive: true, force: true})
  }
}

export async function run(): Promise<Section> {
  const rows: Row[] = []
  for (const posts of sizes) rows.push(...(await measure(posts)))
  const notes: string[] = []
  const small = Math.min(...sizes)
  const large = Math.max(...sizes)
  const ratio = (what: string) => {
    const a = rows.find((row) => row.posts === small && row.what === what)
    const b = rows.find((row) => row.posts === large && row.what === what)
    return a && b ? b.p50 / a.p50 : Number.NaN
  }
  for (const what of [commonRow, rareRow, scanRow])
    notes.push(`${what}: p50 at ${large} posts is ${fmt(ratio(what), 1)}× its p50 at ${small}.`)
  const target = rows.filter((row) => row.what === pageRow || row.what === commonRow)
  const met = target.every((row) => row.p50 <= 5 && row.p99 <= 20)
  const misses = target
    .filter((row) => row.p50 > 5 || row.p99 > 20)
    .map((row) => `${row.what}, ${row.posts} posts: p50 ${fmt(row.p50)} ms, p99 ${fmt(row.p99)} ms`)
  notes.push(
    `Target (/search?q=<a word in every post>, the page and the query it makes: p50 ≤ 5 ms, p99 ≤ 20 ms at 1k and 10k) ${met ? 'MET' : `MISSED (${misses.join('; ')})`}. In process, the search itself (parse, matches, filter, scores, page, the 6 cards) takes ~0.7 ms at 1k posts and ~1.2 ms at 10k on its worker (docs/search.md, "Speed"); the query's other ~1 ms is the HTTP request (the page reads its own lake in process instead), and the page adds its render and compression (~1.1 ms); the slowest requests are mostly waits on this loaded two-core machine (its load is in the line above the table).`,
  )
  const rareMet = rows
    .filter((row) => row.what === rareRow)
    .every((row) => row.p50 <= 5 && row.p99 <= 20)
  notes.push(`A word in one post, same target: ${rareMet ? 'MET' : 'MISSED'}.`)
  const sublinear = ratio(commonRow) < large / small && ratio(rareRow) < large / small
  notes.push(
    `Sub-linear growth (${large / small}× the posts, less than ${large / small}× the p50) ${sublinear ? 'MET' : 'MISSED'}; the full scan grows ${fmt(ratio(scanRow), 1)}×.`,
  )
  if (lighthouseRun) {
    const r = lighthouseRun
    const scores = [r.performance, r.accessibility, r.bestPractices, r.seo]
    const all100 = scores.every((v) => v === 100)
    const failing = Object.entries(r.failing).flatMap(([category, ids]) =>
      ids.map((id) => `${category}: ${id}`),
    )
    // The issue requires the page be noindex; Lighthouse's is-crawlable audit fails any page that
    // blocks every crawler, so SEO 100 and noindex cannot both hold. Said as it is, not hidden.
    const onlyNoindex = failing.length === 1 && failing[0] === 'seo: is-crawlable'
    notes.push(
      `Lighthouse mobile on /search?q=${word} at ${small} posts: ${scores.join('/')}, LCP ${fmt(r.lcp / 1000, 2)} s, JS ${fmt(r.jsBytes / 1024, 1)} KB — ${all100 ? 'MET' : 'MISSED'} (target 100×4, 0 KB of script: ${r.jsBytes === 0 ? 'MET' : 'MISSED'}). Failing audits: ${failing.length > 0 ? failing.join(', ') : 'none'}${onlyNoindex ? `; ${r.performance}/${r.accessibility}/${r.bestPractices} and every SEO audit passes except is-crawlable, which the page's required noindex (issue 25) fails by design` : ''}.`,
    )
  } else if (lighthouseError) notes.push(`Lighthouse on /search failed: ${lighthouseError}`)
  notes.push(
    `Query workers, one at a time, fold the site's search texts in chunks after they load (each document's kept until it changes) and invert them into per-view postings (docs/search.md); the figures are after 8 warm-up searches and once the server's CPU was idle (every worker warmed; waited ${settles.join(', ')}). The first search right after the server started: ${firstSearches.join('; ')}. The first search once it had settled (idle ≥ 1 s): ${afterIdles.join('; ')}; each query row then starts after ${warmUpRuns} unrecorded searches of its kind.`,
  )
  if (failed > 0)
    notes.push(`${failed} measured requests answered 400 (over the anonymous 2 s budget).`)
  notes.push(
    `${runs} requests per target row and ${scanRuns} for the full scan (p99: the nearest rank, the tenth slowest of ${runs}; with the 100 used until 2026-11-26 it was the second slowest, and with the 20 before, the slowest; max: the slowest), each query with a distinct unused param and each page with a distinct query (\`${word} -zq…\`, a negated word in no post: no cache answers), the pages after ${pageWarmUpRuns} of the same kind to warm up, from a new loopback address every 20 (the page's per-client cap is 40 in 20 s).`,
  )
  const cells: Cell[][] = rows.map((each) => [
    each.what,
    each.posts,
    fmt(each.p50),
    fmt(each.p99),
    fmt(each.max),
  ])
  return {
    name: 'search',
    title: 'Search: text::query() at 1k / 10k posts',
    tables: [
      {
        title: `Searching "${word}" (server side, uncached)`,
        columns: ['request', 'posts', 'p50 ms', 'p99 ms', 'max ms'],
        rows: cells,
      },
    ],
    notes,
    data: {rows, lighthouse: lighthouseRun},
  }
}
