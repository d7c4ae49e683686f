import {parentPort, workerData} from 'node:worker_threads'
import {snapshotLake} from './snapshotSql.ts'
import {messageOf} from '../util/messageOf.ts'

/** Runs snapshotLake off the main thread: node:sqlite is synchronous (see snapshot.ts). */
const data: unknown = workerData
try {
  if (
    typeof data !== 'object' ||
    data === null ||
    !('dbFile' in data) ||
    !('outFile' in data) ||
    typeof data.dbFile !== 'string' ||
    typeof data.outFile !== 'string'
  )
    throw new Error('the snapshot worker needs {dbFile, outFile}')
  parentPort?.postMessage({ok: snapshotLake(data.dbFile, data.outFile)})
} catch (error) {
  parentPort?.postMessage({error: messageOf(error)})
}
