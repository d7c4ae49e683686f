import {chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync} from 'node:fs'
import {join} from 'node:path'
import type {ServerConfig} from '../env.ts'
import {writeBackup, type BackupResult} from './backup.ts'
import {describeBackup} from './cli/describe.ts'
import {messageOf} from '../util/messageOf.ts'

/**
 * The longest the schedule sleeps between two looks at the clock, and the wait before retrying
 * a failed backup (or one interval, when that is shorter): a failure (a full disk, say) is
 * retried soon, without a loop that logs it every second.
 */
export const maxTickMs = 10 * 60_000

/**
 * A data dir with no backup yet gets its first this long after the server starts (or after one
 * interval, when that is shorter): a start-up (seeding, a first import) settles first, and a
 * server started for a moment (a test, a quick look) leaves no archive behind.
 */
export const firstBackupDelayMs = 5 * 60_000

const autoPattern = /^auto-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z)\.tar\.gz$/

/** `auto-<ISO time>.tar.gz`, with `-` for `:` so the name is valid everywhere; names sort by time. */
export function autoBackupName(at: Date): string {
  return `auto-${at.toISOString().replaceAll(':', '-')}.tar.gz`
}

function autoBackupTime(name: string): number | undefined {
  const match = autoPattern.exec(name)
  if (!match) return undefined
  const [date, time] = match[1].split('T')
  return Date.parse(`${date}T${time.replace(/^(\d{2})-(\d{2})-/, '$1:$2:')}`)
}

/**
 * When the newest backup in `dir` was made: an automatic one by its name (which survives a
 * copy), any other `.tar.gz` there (a manual backup) by its modification time.
 */
export function newestBackupAt(dir: string): number | undefined {
  let newest: number | undefined
  // A missing or unreadable dir has none: the attempt that follows says what is wrong with it.
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return undefined
  }
  for (const name of names) {
    if (!name.endsWith('.tar.gz')) continue
    const at = autoBackupTime(name) ?? statSync(join(dir, name), {throwIfNoEntry: false})?.mtimeMs
    if (at !== undefined && (newest === undefined || at > newest)) newest = at
  }
  return newest
}

/** When the next backup is due: one interval after the newest, later after a failure. */
export function nextBackupAt(state: {
  newest: number | undefined
  startedAt: number
  intervalMs: number
  failedAt?: number
}): number {
  const {newest, startedAt, intervalMs, failedAt} = state
  const due =
    newest === undefined
      ? startedAt + Math.min(intervalMs, firstBackupDelayMs)
      : newest + intervalMs
  return failedAt === undefined ? due : Math.max(due, failedAt + Math.min(intervalMs, maxTickMs))
}

/** Deletes all but the newest `keep` automatic backups; other files are never touched. */
export function pruneAutoBackups(dir: string, keep: number): string[] {
  const autos = readdirSync(dir)
    .filter((name) => autoPattern.test(name))
    .sort()
  const removed = autos.slice(0, Math.max(0, autos.length - keep))
  for (const name of removed) rmSync(join(dir, name), {force: true})
  return removed
}

export interface ScheduleOptions {
  dataDir: string
  dir: string
  intervalMinutes: number
  keep: number
  now?: () => number
  log?: {info(line: string): void; error(line: string): void}
  /** Called after each attempt (tests wait on it). */
  onAttempt?: (outcome: {result?: BackupResult; error?: unknown}) => void
}

/**
 * Automatic backups while the server runs: every `intervalMinutes`, timed from the newest
 * backup in `dir` (so frequent restarts still get them), keeping the newest `keep` automatic
 * ones. The work runs off the event loop's critical path (a worker thread and streams, see
 * backup.ts); a failure is logged and retried, and never reaches the requests being served.
 */
export class BackupSchedule {
  private readonly options: ScheduleOptions
  private readonly now: () => number
  private readonly log: {info(line: string): void; error(line: string): void}
  private readonly startedAt: number
  private failedAt: number | undefined
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = false

  constructor(options: ScheduleOptions) {
    this.options = options
    this.now = options.now ?? Date.now
    this.log = options.log ?? {info: console.log, error: console.error}
    this.startedAt = this.now()
    // The dir itself is made by the first backup (run), so a short-lived server leaves none.
    try {
      // Work dirs of a backup interrupted by a crash (backup.ts): never an archive, safe to drop.
      if (existsSync(options.dir))
        for (const name of readdirSync(options.dir))
          if (/^\.auto-.*\.work-/.test(name))
            rmSync(join(options.dir, name), {recursive: true, force: true})
    } catch (error) {
      // A bad BACKUP_DIR must not keep the site from starting: each attempt says what is wrong.
      this.log.error(`[backup] FAILED to clean up ${options.dir}: ${messageOf(error)}`)
    }
    this.arm()
  }

  /** The backup dir, owner-only (it holds every unpublished draft and message). */
  private prepareDir(): void {
    mkdirSync(this.options.dir, {recursive: true, mode: 0o700})
    chmodSync(this.options.dir, 0o700)
  }

  private get intervalMs(): number {
    return this.options.intervalMinutes * 60_000
  }

  private dueAt(): number {
    return nextBackupAt({
      newest: newestBackupAt(this.options.dir),
      startedAt: this.startedAt,
      intervalMs: this.intervalMs,
      failedAt: this.failedAt,
    })
  }

  private arm(): void {
    if (this.stopped) return
    const wait = Math.min(Math.max(0, this.dueAt() - this.now()), maxTickMs)
    this.timer = setTimeout(() => void this.tick(), wait)
    // A pending backup never keeps the process alive on its own.
    this.timer.unref()
  }

  private async tick(): Promise<void> {
    this.timer = undefined
    if (this.stopped) return
    if (this.now() >= this.dueAt()) {
      this.running = this.run()
      await this.running
      this.running = undefined
    }
    this.arm()
  }

  /** Deletes old automatic backups; a failure here is logged, the new backup stands. */
  private prune(): string {
    try {
      const removed = pruneAutoBackups(this.options.dir, this.options.keep)
      return removed.length > 0 ? `; removed ${removed.join(', ')}` : ''
    } catch (error) {
      this.log.error(`[backup] FAILED to remove old automatic backups: ${messageOf(error)}`)
      return ''
    }
  }

  private async run(): Promise<void> {
    const {dataDir, dir, keep} = this.options
    const at = new Date(this.now())
    const file = join(dir, autoBackupName(at))
    try {
      this.prepareDir()
      const result = await writeBackup(dataDir, file, {now: () => at})
      this.failedAt = undefined
      const pruned = this.prune()
      this.log.info(
        `[backup] ${describeBackup(result)}; keeping ${keep} automatic backups${pruned}`,
      )
      this.options.onAttempt?.({result})
    } catch (error) {
      this.failedAt = this.now()
      const retry = Math.round(Math.min(this.intervalMs, maxTickMs) / 1000)
      this.log.error(
        `[backup] FAILED: the automatic backup to ${file} was not written: ${messageOf(error)}. The site keeps serving; next attempt in ${retry} s.`,
      )
      this.options.onAttempt?.({error})
    }
  }

  /** Stops the schedule; waits for a backup in progress to finish (it is never cut short). */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running
  }
}

/** The server's schedule from its configuration; none when BACKUP_INTERVAL_MINUTES is 0. */
export function startBackupSchedule(
  config: Pick<ServerConfig, 'dataDir' | 'backupDir' | 'backupIntervalMinutes' | 'backupKeep'>,
): BackupSchedule | undefined {
  if (config.backupIntervalMinutes === 0) return undefined
  return new BackupSchedule({
    dataDir: config.dataDir,
    dir: config.backupDir,
    intervalMinutes: config.backupIntervalMinutes,
    keep: config.backupKeep,
  })
}
