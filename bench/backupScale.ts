import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {monitorEventLoopDelay} from 'node:perf_hooks'
import {writeBackup} from '../server/backup/backup.ts'
import {restoreBackup} from '../server/backup/restore.ts'

export interface BackupMeasured {
  posts: number
  /** lake.sqlite plus its WAL when the backup began. */
  dbBytes: number
  archiveBytes: number
  backupMs: number
  /** The longest the event loop of the process taking the backup was held up meanwhile. */
  maxLoopDelayMs: number
  restoreMs: number
}

const size = (file: string) => {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

/**
 * A backup of `dataDir` as the server's schedule takes it (snapshot on a worker thread, gzip
 * streamed) while the server that owns the lake runs, then a restore of it into a fresh dir.
 */
export async function measureBackup(dataDir: string, posts: number): Promise<BackupMeasured> {
  const work = mkdtempSync(join(tmpdir(), 'scriptorium-bench-backup-'))
  try {
    const db = join(dataDir, 'lake.sqlite')
    const dbBytes = size(db) + size(`${db}-wal`)
    const loop = monitorEventLoopDelay({resolution: 10})
    loop.enable()
    const backup = await writeBackup(dataDir, join(work, 'backup.tar.gz'))
    loop.disable()
    const started = performance.now()
    await restoreBackup(backup.file, join(work, 'restored'), {lakeToken: 'bench'.repeat(8)})
    return {
      posts,
      dbBytes,
      archiveBytes: backup.bytes,
      backupMs: backup.ms,
      maxLoopDelayMs: loop.max / 1e6,
      restoreMs: performance.now() - started,
    }
  } finally {
    rmSync(work, {recursive: true, force: true})
  }
}
