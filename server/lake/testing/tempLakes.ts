import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach} from 'vitest'
import {Lake} from '../lake.ts'

/**
 * For a test file of the lake's own units: opens lakes on fresh data dirs (`<tmp>/<prefix>…`, or
 * `dir` to reopen one, as a restart does), and removes every dir after each test, so no test
 * sees another's data. `dirs` are the test's data dirs, in the order opened.
 */
export function tempLakes(prefix: string): {open: (dir?: string) => Lake; dirs: string[]} {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  })
  const open = (dir = mkdtempSync(join(tmpdir(), prefix))) => {
    if (!dirs.includes(dir)) dirs.push(dir)
    return new Lake({dataDir: dir, projectId: 'scriptorium', dataset: 'production', token: 'owner'})
  }
  return {open, dirs}
}
