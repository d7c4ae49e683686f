import {unlinkSync, writeFileSync} from 'node:fs'
import {setTimeout as delay} from 'node:timers/promises'
import {processAlive, readPidFile} from '../../server/util/pidFile.ts'

/** How often a waiting build looks at the lock again, and how long it waits in all. */
const pollMs = 250
const maxWaitMs = 20 * 60_000

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined
}

export interface BuildLock {
  /** Whether another build held the lock first (then it may just have built the same sources). */
  waited: boolean
  release(): void
}

/**
 * One build at a time in a checkout: the lock is a file created exclusively, holding the
 * builder's pid. A second build waits until the first has swapped its result in (and cleaned
 * up), so two builds never delete each other's folders. A lock whose process is gone (a build
 * killed with Ctrl-C) is taken over.
 */
export async function acquireBuildLock(file: string): Promise<BuildLock> {
  const started = Date.now()
  let waited = false
  let told = false
  for (;;) {
    try {
      writeFileSync(file, `${process.pid}\n`, {flag: 'wx'})
      let released = false
      return {
        waited,
        release: () => {
          if (released) return
          released = true
          if (readPidFile(file) === process.pid) unlinkSync(file)
        },
      }
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error
    }
    const holder = readPidFile(file)
    if (holder === undefined || holder === process.pid || !processAlive(holder)) {
      // Stale (or being written this instant: then the next attempt sees it whole).
      if (holder !== undefined) {
        try {
          unlinkSync(file)
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error
        }
      }
      if (holder === undefined) await delay(pollMs)
      continue
    }
    if (Date.now() - started > maxWaitMs)
      throw new Error(`another build (pid ${holder}) has held ${file} for over 20 minutes`)
    if (!told) {
      console.log(`[build] waiting for the build in process ${holder} to finish`)
      told = true
    }
    waited = true
    await delay(pollMs)
  }
}
