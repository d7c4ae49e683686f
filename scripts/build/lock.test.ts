import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {acquireBuildLock} from './lock.ts'

let dir: string
let file: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-build-lock-'))
  file = join(dir, 'build.lock')
})
afterEach(() => rmSync(dir, {recursive: true, force: true}))

describe('the build lock', () => {
  it('makes a second build wait while another live build holds it, and says it waited', async () => {
    // A lock naming a live other process is what makes a build wait: this test's parent (the
    // test runner) stands in for the first build.
    writeFileSync(file, `${process.ppid}\n`)
    const second = acquireBuildLock(file)
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.ppid))
    rmSync(file) // the first build is done
    const lock = await second
    expect(lock.waited).toBe(true)
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid))
    lock.release()
    expect(existsSync(file)).toBe(false)
  })

  it('is taken at once when free', async () => {
    const lock = await acquireBuildLock(file)
    expect(lock.waited).toBe(false)
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid))
    lock.release()
  })

  it('takes over the lock of a build that is gone (killed mid-build)', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid
    writeFileSync(file, `${gone}\n`)
    const lock = await acquireBuildLock(file)
    expect(lock.waited).toBe(false)
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid))
    lock.release()
  })
})
