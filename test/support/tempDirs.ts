import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach} from 'vitest'

/**
 * For a test file whose units write files: the returned function makes a fresh empty dir
 * (`<tmp>/<prefix>…`), and every dir it made is removed after each test, so that no test sees
 * another's files. Call it at the file's top level (it registers an `afterEach`).
 */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    dirs.push(dir)
    return dir
  }
}
