import {readFileSync} from 'node:fs'

/** Whether process `pid` exists (EPERM: it does, but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM'
  }
}

/** The process id a lock file holds (one line), or undefined when it is missing or not a pid. */
export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}
