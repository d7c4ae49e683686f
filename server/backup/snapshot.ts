import {Worker} from 'node:worker_threads'
import {BackupError} from './errors.ts'
import type {SnapshotFacts} from './snapshotSql.ts'

type Reply = {ok: SnapshotFacts} | {error: string}

function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && ('ok' in value || 'error' in value)
}

/**
 * Takes the lake's snapshot (snapshotSql.ts) on a worker thread: `VACUUM INTO` and
 * `integrity_check` are synchronous in node:sqlite and take seconds on a large lake, which on
 * the main thread would stall every request meanwhile.
 */
export function takeSnapshot(dbFile: string, outFile: string): Promise<SnapshotFacts> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./snapshotWorker.ts', import.meta.url), {
      workerData: {dbFile, outFile},
    })
    let settled = false
    worker.once('message', (reply: unknown) => {
      settled = true
      if (!isReply(reply)) reject(new BackupError('the snapshot worker answered nonsense'))
      else if ('ok' in reply) resolve(reply.ok)
      else reject(new BackupError(`the snapshot failed: ${reply.error}`))
    })
    worker.once('error', (error) => {
      settled = true
      reject(new BackupError(`the snapshot worker failed: ${error.message}`))
    })
    worker.once('exit', (code) => {
      if (!settled)
        reject(new BackupError(`the snapshot worker exited (${code}) without an answer`))
    })
  })
}
