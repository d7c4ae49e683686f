import {existsSync} from 'node:fs'
import {findSuiteFile, loadSuite, runSuite} from '../bench/groqSuite.ts'
import {isLoadMode, loadModes, type LoadMode} from '../bench/groqSuiteLoad.ts'
import {startLakeInProcess} from '../bench/lakeInProcess.ts'

/**
 * `npm run test:groq-suite [-- --all] [-- --mode=raw|client|both] [-- <file>]`: the official GROQ
 * conformance suite through the lake's HTTP API, compared with groq-js in process
 * (bench/groqSuite.ts). The suite is public data from elsewhere and stays out of the repository,
 * so this is not part of `npm test`; `.ci/run` runs it after `npm test` wherever the file is
 * present. The file is the first argument, else what `findSuiteFile()` finds (`GROQ_TEST_SUITE`,
 * or the workspace's copy).
 *
 * Each mode (bench/groqSuiteLoad.ts) runs on a lake of its own, loading the datasets one after
 * another into its one dataset: `raw` by the lake's import path, `client` as a client does
 * (`delete *`, then `createOrReplace`); `both` (the default) runs one, then the other.
 *
 * By default it runs a deterministic sample (every invalid query, every test with params, every
 * slice of `*` without `order()`, every 8th of the rest: about a seventh); `--all` runs all
 * 10 263 tests.
 */
const args = process.argv.slice(2)
const all = args.includes('--all')
const modeArg = args.find((arg) => arg.startsWith('--mode='))?.slice('--mode='.length) ?? 'both'
const file = args.find((arg) => !arg.startsWith('--')) ?? findSuiteFile()

if (modeArg !== 'both' && !isLoadMode(modeArg)) {
  console.error(`groq-suite: --mode is one of ${loadModes.join(', ')} or both, not "${modeArg}"`)
  process.exit(2)
}
if (file === undefined || !existsSync(file)) {
  console.error(
    `groq-suite: the suite's file was not found (${file ?? 'set GROQ_TEST_SUITE'}). Build it from sanity-io/groq-test-suite as the README says ("The GROQ suite").`,
  )
  process.exit(2)
}

/**
 * A slice of `*` with no `order()` (`*[_type == "test"][0...3]`): its answer is decided by the
 * order of `*` alone (server/lake/store/documentOrder.ts), which is what `client` mode exercises; the
 * sample keeps all 48 of them.
 */
const slicesStar = /^\s*\*\s*(\[[^\]]*\])?\s*\[\s*-?\d+\s*\.\.\.?\s*-?\d+\s*\]/
const orderDecides = (query: string) => slicesStar.test(query) && !query.includes('order(')

const suite = loadSuite(file)
const tests = all
  ? suite.tests
  : suite.tests.filter(
      (test, index) =>
        !test.valid || test.params !== undefined || index % 8 === 0 || orderDecides(test.query),
    )

/** Runs the tests in one mode on a lake of its own; answers what failed (empty: nothing). */
async function runMode(mode: LoadMode): Promise<string[]> {
  const t = await startLakeInProcess()
  const report = await runSuite(t, suite, tests, {mode}).finally(() => t.stop())
  console.log(
    `[groq-suite ${mode}]`,
    JSON.stringify({...report, differences: report.differences.length}),
  )
  for (const difference of report.differences) console.error(`  differs (${mode}): ${difference}`)

  const compared = tests.length - report.withoutDataset - report.timedOut
  // Two `valid: false` score() queries are accepted by groq-js itself (not by our layer).
  const acceptedInvalid = report.invalid - report.invalidRejected
  const failures = [
    report.differences.length > 0 && `${report.differences.length} answers differ from groq-js`,
    report.same !== compared && `${report.same} of ${compared} compared tests agree`,
    acceptedInvalid !== 2 &&
      `${acceptedInvalid} invalid queries accepted (expected 2, groq-js's own)`,
  ].filter((failure) => typeof failure === 'string')
  if (failures.length === 0)
    console.log(
      `groq-suite (${mode}): ${compared} of ${tests.length} tests answered over HTTP exactly as groq-js in process (${report.timedOut} stopped by the time limit) in ${report.ms} ms`,
    )
  return failures.map((failure) => `${mode}: ${failure}`)
}

const failures: string[] = []
for (const mode of modeArg === 'both' ? loadModes : [modeArg])
  failures.push(...(await runMode(mode)))
if (failures.length > 0) {
  console.error(`groq-suite: FAILED: ${failures.join('; ')}`)
  process.exitCode = 1
}
