import {mkdirSync, unlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BackupError, errorCode} from './errors.ts'
import {processAlive, readPidFile} from '../util/pidFile.ts'

/** The file a running server holds in its data dir: its process id, one line. */
export const lockFileName = 'server.lock'

export interface DataDirLock {
  file: string
  release(): void
}

/**
 * The process holding `dataDir`, if it is alive and not this one. A lock whose process is gone
 * (a crash, `kill -9`) is stale. A lock naming this very process is treated as stale too: in a
 * container the server often gets the same small pid after every restart, so that lock was
 * left by its previous run.
 */
export function lockHolder(dataDir: string): number | undefined {
  const pid = readPidFile(join(dataDir, lockFileName))
  return pid !== undefined && pid !== process.pid && processAlive(pid) ? pid : undefined
}

/**
 * Takes `dataDir`'s lock for this process (creating the dir if needed), taking over a stale
 * one; throws a BackupError naming the holder when another live process has it. Two processes
 * taking over the same stale lock in the same instant are not told apart; starting two servers
 * on one data dir at once is not something this guards against, restoring under a running one
 * is.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, {recursive: true})
  const file = join(dataDir, lockFileName)
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, {flag: 'wx', mode: 0o600})
      return {file, release: () => releaseLock(file)}
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error
    }
    const holder = lockHolder(dataDir)
    if (holder !== undefined)
      throw new BackupError(
        `${dataDir} is in use by a running server (pid ${holder}, ${file}). Stop it first.`,
      )
    try {
      unlinkSync(file)
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error
    }
  }
  throw new BackupError(`Could not take ${file}: another process keeps taking it`)
}

/** Removes the lock if it is still this process's. */
function releaseLock(file: string): void {
  if (readPidFile(file) !== process.pid) return
  try {
    unlinkSync(file)
  } catch {
    // Already gone (the dir was moved or removed): nothing to release.
  }
}
