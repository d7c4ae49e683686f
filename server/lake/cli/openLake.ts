import {existsSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {defaultDataset, localProjectId} from '../../../shared/constants.ts'
import {Lake, storeOf} from '../lake.ts'

/** The data dir the server uses: `DATA_DIR`, default ./data (as in server/env.ts). */
export function dataDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || './data')
}

export class CliError extends Error {}

/**
 * Opens the lake in `dataDir` for a command-line tool. A writer takes SQLite's exclusive lock
 * and keeps it: a running server holds the file open, and since it keeps every document in
 * memory it would not see rows written behind its back, so a busy lake is refused, not shared.
 */
export function openLake(dataDir: string, options: {write: boolean; mustExist: boolean}): Lake {
  if (options.mustExist && !existsSync(join(dataDir, 'lake.sqlite'))) {
    throw new CliError(`No lake in ${dataDir} (set DATA_DIR to the server's data directory)`)
  }
  const lake = new Lake({
    dataDir,
    projectId: localProjectId,
    dataset: defaultDataset,
    token: process.env.LAKE_TOKEN || undefined,
  })
  if (options.write) {
    try {
      storeOf(lake).db.exec(
        'PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;',
      )
    } catch (error) {
      lake.close()
      if (/locked|busy/i.test(String(error))) {
        throw new CliError(
          `The lake in ${dataDir} is in use (is the server running?). Stop the server, then run this again.`,
        )
      }
      throw error
    }
  }
  return lake
}
