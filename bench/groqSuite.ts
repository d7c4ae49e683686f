import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {isDeepStrictEqual} from 'node:util'
import {gunzipSync} from 'node:zlib'
import {ClientError} from '@sanity/client'
import {evaluate, parse} from 'groq-js'
import type {Doc} from '../server/lake/index.ts'
import {loadDataset, type LoadMode, type SuiteTarget} from './groqSuiteLoad.ts'

/**
 * Runs the official GROQ test suite (sanity-io/groq-test-suite, MIT, compiled to one gzipped
 * NDJSON file, read in place and never copied into the repository) through the lake's HTTP API
 * with @sanity/client, and compares each answer with groq-js evaluating the same query over the
 * same documents in process. Any difference is a fidelity bug of ours (params encoding,
 * serialization, storage, perspective, the order of `*`). The datasets are loaded one after
 * another into one dataset, by the lake's import path or as a client does over HTTP
 * (groqSuiteLoad.ts), and groq-js is given the documents as the lake stored them. `npm test` never
 * reads it: it is public data from elsewhere, run by `npm run test:groq-suite`
 * (scripts/groqSuite.ts) and `npm run bench:lake`.
 */

/**
 * Where the suite's file is: `GROQ_TEST_SUITE`, else the workspace's copy beside the checkout (the
 * one path above the repository any file here names: test/repo/selfContained.test.ts allows it in
 * this file alone); undefined when neither exists.
 */
export function findSuiteFile(): string | undefined {
  const candidates = [
    process.env.GROQ_TEST_SUITE,
    join(import.meta.dirname, '..', '..', 'shared', 'data', 'groq-test-suite.ndjson.gz'),
  ]
  return candidates.find((file) => file !== undefined && existsSync(file))
}

export interface SuiteTest {
  _id: string
  query: string
  result: unknown
  valid: boolean
  dataset: string
  params?: Record<string, unknown>
}

export interface Suite {
  datasets: Map<string, Doc[]>
  tests: SuiteTest[]
}

export function loadSuite(file: string): Suite {
  const entries = gunzipSync(readFileSync(file))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  const datasets = new Map<string, Doc[]>()
  const tests: SuiteTest[] = []
  for (const entry of entries) {
    if (entry._type === 'dataset') datasets.set(entry._id, entry.documents)
    else if (entry._type === 'test') tests.push(entry)
  }
  return {datasets, tests}
}

type Outcome =
  {kind: 'result'; value: unknown} | {kind: 'parseError'} | {kind: 'error'} | {kind: 'timeout'}

async function inProcess(test: SuiteTest, docs: Doc[]): Promise<Outcome> {
  const params = test.params ?? {}
  let tree
  try {
    tree = parse(test.query, {params})
  } catch {
    return {kind: 'parseError'}
  }
  try {
    const value = await (
      await evaluate(tree, {
        dataset: docs,
        params,
        sanity: {projectId: 'scriptorium', dataset: 'production'},
      })
    ).get()
    // What travels over HTTP is JSON: compare with the JSON form.
    return {kind: 'result', value: value === undefined ? null : JSON.parse(JSON.stringify(value))}
  } catch {
    return {kind: 'error'}
  }
}

async function overHttp(t: SuiteTarget, test: SuiteTest): Promise<Outcome> {
  try {
    return {
      kind: 'result',
      value: await t.owner.fetch(test.query, test.params ?? {}, {perspective: 'raw'}),
    }
  } catch (error) {
    if (!(error instanceof ClientError) || error.statusCode !== 400) throw error
    const details = error.details as
      {type?: string; start?: unknown; end?: unknown; query?: unknown} | undefined
    const parseError =
      details?.type === 'queryParseError' &&
      typeof details.start === 'number' &&
      typeof details.end === 'number'
    if (details?.type === 'queryTimeout') return {kind: 'timeout'}
    return parseError && details.query === test.query ? {kind: 'parseError'} : {kind: 'error'}
  }
}

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < items.length) await work(items[next++])
  }
  await Promise.all(Array.from({length: limit}, lane))
}

export interface SuiteReport {
  tests: number
  /** The lake over HTTP answered exactly as groq-js in process (or refused an invalid query). */
  same: number
  different: number
  /** Of the valid tests, how many answers equal the suite's expected result (groq-js's own fidelity). */
  validAgreeingWithSuite: number
  valid: number
  /** Of the `valid: false` tests, how many the lake rejected with a 400 queryParseError. */
  invalidRejected: number
  invalid: number
  /** Stopped by the lake's query time limit, so not compared (groq-js is as slow in process). */
  timedOut: number
  /** Tests whose dataset the compiled suite left out (the external one): not run. */
  withoutDataset: number
  ms: number
  differences: string[]
}

/**
 * Loads each dataset once into the one dataset, replacing the previous one (`mode`:
 * groqSuiteLoad.ts), and runs its tests in parallel batches.
 */
export async function runSuite(
  t: SuiteTarget,
  suite: Suite,
  tests: SuiteTest[],
  options: {mode?: LoadMode; concurrency?: number} = {},
): Promise<SuiteReport> {
  const {mode = 'raw', concurrency = 8} = options
  const started = performance.now()
  const report: SuiteReport = {
    tests: tests.length,
    same: 0,
    different: 0,
    validAgreeingWithSuite: 0,
    valid: 0,
    invalidRejected: 0,
    invalid: 0,
    timedOut: 0,
    withoutDataset: 0,
    ms: 0,
    differences: [],
  }
  let loaded: Doc[] = []
  for (const [datasetId, docs] of suite.datasets) {
    const mine = tests.filter((test) => test.dataset === datasetId)
    if (mine.length === 0) continue
    // groq-js evaluates over the documents as the lake stored them, in the order of `*`.
    const stored = await loadDataset(t, mode, docs, loaded)
    loaded = stored
    await pool(mine, concurrency, async (test) => {
      const lake = await overHttp(t, test)
      if (lake.kind === 'timeout') {
        // Stopped by the lake's time limit (e.g. eleven nested subqueries): groq-js in process
        // would run just as long, unstoppably, so there is nothing to compare.
        report.timedOut++
        return
      }
      const groq = await inProcess(test, stored)
      if (test.valid) {
        report.valid++
        if (lake.kind === 'result' && isDeepStrictEqual(lake.value, test.result))
          report.validAgreeingWithSuite++
      } else {
        report.invalid++
        if (lake.kind === 'parseError') report.invalidRejected++
      }
      // A query the suite calls invalid must be refused, as Sanity does, even where groq-js
      // evaluates it (an unprovided $param). now() differs between two evaluations by design.
      const refused = !test.valid && lake.kind === 'parseError'
      const clock = /now\(\)/.test(test.query) && lake.kind === 'result' && groq.kind === 'result'
      if (refused || clock || isDeepStrictEqual(lake, groq)) report.same++
      else {
        report.different++
        report.differences.push(
          `${test._id} ${JSON.stringify(test.query)}: lake ${JSON.stringify(lake).slice(0, 300)} / groq-js ${JSON.stringify(groq).slice(0, 300)}`,
        )
      }
    })
  }
  report.withoutDataset = tests.filter((test) => !suite.datasets.has(test.dataset)).length
  report.ms = Math.round(performance.now() - started)
  return report
}
