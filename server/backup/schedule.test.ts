import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  watch,
  writeFileSync,
} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {readConfig} from '../env.ts'
import type {BackupResult} from './backup.ts'
import {
  autoBackupName,
  BackupSchedule,
  firstBackupDelayMs,
  maxTickMs,
  nextBackupAt,
  startBackupSchedule,
} from './schedule.ts'
import {parseNdjson, seedFile} from '../lake/index.ts'

/** The seeded lake's documents: the sample posts and the image assets they show. */
const seed = parseNdjson(readFileSync(seedFile, 'utf8'))
const seedImages = seed.filter((doc) => doc._type === 'sanity.imageAsset').length

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'schedule-'))
})
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const minute = 60_000
const autos = (backups: string) =>
  readdirSync(backups)
    .filter((name) => name.startsWith('auto-'))
    .sort()

/**
 * Resolves once `path` (a dir under `root`, perhaps not made yet) holds a name matching
 * `pattern`; watches `root` (fs.watch, not polling); bounded.
 */
function appears(root: string, path: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const found = () =>
      existsSync(path) ? readdirSync(path).find((name) => pattern.test(name)) : undefined
    const watcher = watch(root, {recursive: true}, () => {
      const name = found()
      if (name) done(() => resolve(name))
    })
    const timer = setTimeout(
      () => done(() => reject(new Error(`nothing like ${pattern} in ${path}`))),
      timeoutMs,
    )
    const done = (then: () => void) => {
      clearTimeout(timer)
      watcher.close()
      then()
    }
    const already = found()
    if (already) done(() => resolve(already))
  })
}

describe('automatic backups', () => {
  it('are configured by BACKUP_DIR, BACKUP_INTERVAL_MINUTES (0 = off) and BACKUP_KEEP', () => {
    expect(readConfig({DATA_DIR: '/srv/site'})).toMatchObject({
      backupDir: '/srv/site/backups',
      backupIntervalMinutes: 1440,
      backupKeep: 7,
    })
    const set = readConfig({BACKUP_DIR: '/mnt/b', BACKUP_INTERVAL_MINUTES: '0.5', BACKUP_KEEP: '3'})
    expect(set).toMatchObject({backupDir: '/mnt/b', backupIntervalMinutes: 0.5, backupKeep: 3})
    expect(() => readConfig({BACKUP_INTERVAL_MINUTES: '-1'})).toThrow(/BACKUP_INTERVAL_MINUTES/)
    expect(() => readConfig({BACKUP_INTERVAL_MINUTES: 'daily'})).toThrow(/BACKUP_INTERVAL_MINUTES/)
    expect(() => readConfig({BACKUP_KEEP: '0'})).toThrow(/BACKUP_KEEP/)
    expect(() => readConfig({BACKUP_KEEP: '2.5'})).toThrow(/BACKUP_KEEP/)
    const off = readConfig({DATA_DIR: join(dir, 'off'), BACKUP_INTERVAL_MINUTES: '0'})
    expect(startBackupSchedule(off)).toBeUndefined()
    expect(existsSync(off.backupDir)).toBe(false)
  })

  it('are due one interval after the newest backup, the first a little after start, later after a failure', () => {
    const at = Date.parse('2026-01-01T00:00:00Z')
    expect(nextBackupAt({newest: at, startedAt: at + 5 * minute, intervalMs: 1440 * minute})).toBe(
      at + 1440 * minute,
    )
    // A restart long after the newest backup: due at once.
    expect(
      nextBackupAt({newest: at, startedAt: at + 2000 * minute, intervalMs: 1440 * minute}),
    ).toBe(at + 1440 * minute)
    expect(nextBackupAt({newest: undefined, startedAt: at, intervalMs: 1440 * minute})).toBe(
      at + firstBackupDelayMs,
    )
    expect(nextBackupAt({newest: undefined, startedAt: at, intervalMs: 1000})).toBe(at + 1000)
    expect(
      nextBackupAt({
        newest: at - 2000 * minute,
        startedAt: at,
        intervalMs: 1440 * minute,
        failedAt: at,
      }),
    ).toBe(at + maxTickMs)
    expect(autoBackupName(new Date(at))).toBe('auto-2026-01-01T00-00-00.000Z.tar.gz')
  })

  it('run every interval from the newest backup, keep BACKUP_KEEP automatic ones and every manual one, and retry a failure', async () => {
    const dataDir = join(dir, 'data')
    const backups = join(dir, 'backups')
    mkdirSync(backups)
    const manual = join(backups, 'before-upgrade.tar.gz')
    writeFileSync(manual, 'a manual backup')
    const hourAgo = new Date(Date.now() - 60 * minute)
    utimesSync(manual, hourAgo, hourAgo)

    const outcomes: Array<{result?: BackupResult; error?: unknown}> = []
    const info: string[] = []
    const errors: string[] = []
    let firstAttempt: () => void = () => undefined
    const first = new Promise<void>((resolve) => (firstAttempt = resolve))
    let threeWritten: () => void = () => undefined
    const done = new Promise<void>((resolve) => (threeWritten = resolve))
    const intervalMinutes = 0.02
    // No lake in dataDir yet: the first attempt (due at once: the newest backup is an hour old) fails.
    const schedule = new BackupSchedule({
      dataDir,
      dir: backups,
      intervalMinutes,
      keep: 2,
      log: {info: (line) => info.push(line), error: (line) => errors.push(line)},
      onAttempt: (outcome) => {
        outcomes.push(outcome)
        firstAttempt()
        // Stopped at once: a busy machine could otherwise start a fourth before the test stops it.
        if (outcomes.filter((o) => o.result).length === 3) {
          void schedule.stop()
          threeWritten()
        }
      },
    })
    await first
    expect(outcomes[0].error).toBeDefined()
    expect(errors[0]).toMatch(
      /^\[backup\] FAILED: .*No lake in .* The site keeps serving; next attempt in 1 s\./,
    )
    // The lake arrives whole: seeded in a staging dir, then renamed into place. A retry that
    // caught a lake still being seeded would back up what it had then (fewer documents).
    const staging = join(dir, 'staging')
    const seeding = await startTestServer({DATA_DIR: staging, BACKUP_INTERVAL_MINUTES: '0'})
    await seeding.stop()
    renameSync(staging, dataDir)
    const server = await startTestServer({DATA_DIR: dataDir, BACKUP_INTERVAL_MINUTES: '0'})
    try {
      await done
      await schedule.stop()
    } finally {
      await server.stop()
    }
    const written = outcomes.flatMap((o) => (o.result ? [o.result] : []))
    expect(written).toHaveLength(3)
    for (const [i, result] of written.entries()) {
      expect(result.manifest.counts.documents).toBe(seed.length)
      if (i > 0)
        expect(
          Date.parse(result.manifest.createdAt) - Date.parse(written[i - 1].manifest.createdAt),
        ).toBeGreaterThanOrEqual(intervalMinutes * minute)
    }
    expect(autos(backups)).toEqual(written.slice(1).map((r) => r.file.slice(backups.length + 1)))
    expect(existsSync(manual)).toBe(true)
    expect(readdirSync(backups).filter((name) => name.startsWith('.'))).toEqual([])
    expect(info).toHaveLength(3)
    expect(info[2]).toMatch(
      new RegExp(
        `^\\[backup\\] wrote .*auto-.*\\.tar\\.gz: \\d+\\.\\d [KM]B in \\d+\\.\\d s \\(${seed.length} documents, ${seedImages} images, schema \\d+\\); keeping 2 automatic backups; removed auto-`,
      ),
    )
  })

  it('with an unusable BACKUP_DIR, log the failure and keep the server serving', async () => {
    const notADir = join(dir, 'a-file')
    writeFileSync(notADir, '')
    const backups = join(notADir, 'backups')
    const errors: string[] = []
    let attempted: (outcome: {error?: unknown}) => void = () => undefined
    const attempt = new Promise<{error?: unknown}>((resolve) => (attempted = resolve))
    const schedule = new BackupSchedule({
      dataDir: join(dir, 'data'),
      dir: backups,
      intervalMinutes: 0.005,
      keep: 1,
      log: {info: () => undefined, error: (line) => errors.push(line)},
      onAttempt: (outcome) => attempted(outcome),
    })
    expect((await attempt).error).toBeDefined()
    await schedule.stop()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /^\[backup\] FAILED: the automatic backup to .*a-file\/backups\/auto-.* was not written: ENOTDIR/,
    )

    const server = await startTestServer({SEED: '0', BACKUP_DIR: backups})
    try {
      const answer = await fetch(`${server.url}/v2023-07-29/data/query/production?query=count(*)`)
      expect(answer.status).toBe(200)
    } finally {
      await server.stop()
    }
  })

  it('the server writes them into DATA_DIR/backups (0700) while it runs', async () => {
    const server = await startTestServer({
      SEED: '0',
      BACKUP_INTERVAL_MINUTES: '0.005',
      BACKUP_KEEP: '1',
    })
    const backups = join(server.dataDir, 'backups')
    try {
      await appears(server.dataDir, backups, /^auto-.*\.tar\.gz$/)
      expect(statSync(backups).mode & 0o777).toBe(0o700)
    } finally {
      await server.stop()
    }
  })
})
