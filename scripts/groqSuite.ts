import {existsSync} from 'node:fs'
import {findSuiteFile, loadSuite, runSuite} from '../bench/groqSuite.ts'
import {startLakeInProcess} from '../bench/lakeInProcess.ts'

/**
 * `npm run test:groq-suite [-- --all] [-- <file>]`: the official GROQ conformance suite through the
 * lake's HTTP API, compared with groq-js in process (bench/groqSuite.ts). The suite is
 * public data from elsewhere and stays out of the repository, so this is not part of `npm test`;
 * `.ci/run` runs it after `npm test` wherever the file is present. The file is the first argument,
 * else what `findSuiteFile()` finds (`GROQ_TEST_SUITE`, or the workspace's copy).
 *
 * By default it runs a deterministic sample (every invalid query, every test with params, every
 * 8th of the rest: about a fifth, a minute here); `--all` runs all 10 263 tests.
 */
const args = process.argv.slice(2)
const all = args.includes('--all')
const file = args.find((arg) => !arg.startsWith('--')) ?? findSuiteFile()

if (file === undefined || !existsSync(file)) {
  console.error(
    `groq-suite: the suite's file was not found (${file ?? 'set GROQ_TEST_SUITE'}). Build it from sanity-io/groq-test-suite as the README says ("The GROQ suite").`,
  )
  process.exit(2)
}

const suite = loadSuite(file)
const tests = all
  ? suite.tests
  : suite.tests.filter((test, index) => !test.valid || test.params !== undefined || index % 8 === 0)
const t = await startLakeInProcess()
const report = await runSuite(t, suite, tests).finally(() => t.stop())
console.log('[groq-suite]', JSON.stringify({...report, differences: report.differences.length}))
for (const difference of report.differences) console.error(`  differs: ${difference}`)

const compared = tests.length - report.withoutDataset - report.timedOut
// Two `valid: false` score() queries are accepted by groq-js itself (not by our layer).
const acceptedInvalid = report.invalid - report.invalidRejected
const failures = [
  report.differences.length > 0 && `${report.differences.length} answers differ from groq-js`,
  report.same !== compared && `${report.same} of ${compared} compared tests agree`,
  acceptedInvalid !== 2 &&
    `${acceptedInvalid} invalid queries accepted (expected 2, groq-js's own)`,
].filter(Boolean)
if (failures.length > 0) {
  console.error(`groq-suite: FAILED: ${failures.join('; ')}`)
  process.exitCode = 1
} else
  console.log(
    `groq-suite: ${compared} of ${tests.length} tests answered over HTTP exactly as groq-js in process (${report.timedOut} stopped by the time limit) in ${report.ms} ms`,
  )
