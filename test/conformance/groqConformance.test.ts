import {afterAll, beforeAll, expect, it} from 'vitest'
import {loadSuite, runSuite} from '../../bench/groqSuite.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../support/lakeUnderTest.ts'

/**
 * GROQ conformance through the HTTP API (see groqSuite.ts). The full suite (10 263 tests) takes
 * minutes on this shared 2-core machine, so `npm run bench:lake` runs all of it; this test runs a
 * deterministic sample: every invalid query, every test with params, and every 8th of the rest.
 */
let t: LakeUnderTest
beforeAll(async () => {
  t = await startLakeUnderTest()
})
afterAll(() => t.stop())

it(
  'answers a sample of the GROQ test suite over HTTP exactly as groq-js in process',
  {timeout: 120_000},
  async () => {
    const suite = loadSuite()
    const sample = suite.tests.filter(
      (test, index) => !test.valid || test.params !== undefined || index % 8 === 0,
    )
    const report = await runSuite(t, suite, sample)
    console.log(
      '[conformance]',
      JSON.stringify({...report, differences: report.differences.length}),
    )
    expect(report.differences).toEqual([])
    expect(report.same).toBe(sample.length - report.withoutDataset - report.timedOut)
    // Two `valid: false` score() queries are accepted by groq-js itself (not by our layer).
    expect(report.invalidRejected).toBe(report.invalid - 2)
  },
)
