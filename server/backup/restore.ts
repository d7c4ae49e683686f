import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
} from 'node:fs'
import {dirname, join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {resolveOwnerToken, schemaVersion, Store} from '../lake/index.ts'
import {BackupError} from './errors.ts'
import {extractBackup} from './extract.ts'
import {acquireDataDirLock, lockFileName, type DataDirLock} from './lock.ts'
import {lakeFile, type DocumentCounts, type Manifest} from './manifest.ts'
import {describeLake, integrityProblems} from './snapshotSql.ts'
import {ensureFreeSpace} from './space.ts'
import {messageOf} from '../util/messageOf.ts'

export interface RestoreOptions {
  /** Move a non-empty DATA_DIR aside instead of refusing. */
  force?: boolean
  /** `LAKE_TOKEN`: when set, no owner-token file is generated. */
  lakeToken?: string
  now?: () => Date
}

export interface RestoreResult {
  manifest: Manifest
  /** Where the previous DATA_DIR went (with --force). */
  movedAside?: string
  /** The schema version the backup had, when the restore migrated it. */
  migratedFrom?: number
  /** The newly generated owner token's file, unless LAKE_TOKEN is set. */
  tokenFile?: string
}

function refuseNewer(manifest: Manifest): void {
  if (manifest.schemaVersion > schemaVersion)
    throw new BackupError(
      `This backup has schema version ${manifest.schemaVersion}, newer than this Scriptorium's ${schemaVersion}: it was made by a newer version. Upgrade Scriptorium (git pull, npm ci), then restore again.`,
    )
}

function sameCounts(a: DocumentCounts, b: DocumentCounts): boolean {
  const types = new Set([...Object.keys(a.byType), ...Object.keys(b.byType)])
  return (
    a.documents === b.documents &&
    a.transactions === b.transactions &&
    a.revision === b.revision &&
    [...types].every((type) => a.byType[type] === b.byType[type])
  )
}

/** Checks the extracted database as SQLite and against the manifest, then migrates it by opening it. */
function checkAndMigrate(dir: string, manifest: Manifest): void {
  const db = new DatabaseSync(join(dir, lakeFile))
  try {
    const problems = integrityProblems(db)
    if (problems.length > 0)
      throw new BackupError(
        `the backup's database fails PRAGMA integrity_check: ${problems.slice(0, 5).join('; ')}`,
      )
    const facts = describeLake(db)
    if (facts.schemaVersion !== manifest.schemaVersion)
      throw new BackupError(
        `the archive is corrupt: its database is schema ${facts.schemaVersion}, its manifest says ${manifest.schemaVersion}`,
      )
    if (!sameCounts(facts.counts, manifest.counts))
      throw new BackupError(
        'the archive is corrupt: its database does not hold the documents its manifest counts',
      )
  } finally {
    db.close()
  }
  // The lake's own Store applies any newer migrations on open, as the server would.
  const store = new Store(dir)
  // The text index is derived data: rebuilt from the restored documents, whatever the backup held.
  store.rebuildTextIndex()
  const documents = store.size
  store.close()
  if (documents !== manifest.counts.documents)
    throw new BackupError(
      `the migration lost documents (${documents} of ${manifest.counts.documents})`,
    )
}

const visibleEntries = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => name !== lockFileName) : []

function notEmpty(dataDir: string, existing: string[]): BackupError {
  const some = existing.slice(0, 5).join(', ') + (existing.length > 5 ? ', …' : '')
  return new BackupError(
    `${dataDir} is not empty (it holds ${some}). Restore into an empty DATA_DIR, or add --force to move this one aside (it is kept, never deleted).`,
  )
}

/** The archive extracted into `target` and verified there, migrated to the current schema. */
async function extractVerified(
  archive: string,
  target: string,
  dataDir: string,
): Promise<Manifest> {
  const manifest = await extractBackup(archive, target, (m) => {
    refuseNewer(m)
    // The files, then room for the migration to rewrite the database.
    const lake = m.files.find((f) => f.path === lakeFile)?.bytes ?? 0
    ensureFreeSpace(
      dirname(dataDir),
      m.files.reduce((sum, f) => sum + f.bytes, lake),
      'the restore',
    )
  })
  checkAndMigrate(target, manifest)
  return manifest
}

/**
 * Moves a non-empty `dataDir` aside (kept, never deleted; its lock goes with it) or removes the
 * empty one; returns where the old one went.
 */
function makeRoom(
  dataDir: string,
  existing: string[],
  lock: DataDirLock | undefined,
  now: Date,
): string | undefined {
  if (existing.length > 0) {
    const movedAside = `${dataDir}.before-restore-${now.toISOString().replaceAll(':', '-')}`
    renameSync(dataDir, movedAside)
    unlinkSync(join(movedAside, lockFileName))
    return movedAside
  }
  if (existsSync(dataDir)) {
    lock?.release()
    rmdirSync(dataDir)
  }
  return undefined
}

/**
 * Restores the backup `archive` into `dataDir`. Refuses while a server holds `dataDir`, and
 * refuses a non-empty `dataDir` unless `force` (then it is renamed aside, never deleted).
 * Everything is extracted into a temporary dir beside `dataDir` and verified there (checksums,
 * integrity_check, counts, migration to the current schema) before one rename puts it in
 * place, so a bad archive leaves `dataDir` as it was.
 */
export async function restoreBackup(
  archive: string,
  dataDir: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  if (!existsSync(archive)) throw new BackupError(`${archive} does not exist`)
  const existing = visibleEntries(dataDir)
  let lock: DataDirLock | undefined = existsSync(dataDir) ? acquireDataDirLock(dataDir) : undefined
  let temp: string | undefined
  let replaced = false
  try {
    if (existing.length > 0 && !options.force) throw notEmpty(dataDir, existing)
    mkdirSync(dirname(dataDir), {recursive: true})
    temp = mkdtempSync(`${dataDir}.restore-`)
    const target = temp
    const manifest = await extractVerified(archive, target, dataDir)

    // From here the new dir is complete. Lock it, so that a server started right now waits.
    acquireDataDirLock(target)
    const movedAside = makeRoom(dataDir, existing, lock, options.now?.() ?? new Date())
    lock = undefined
    replaced = true
    try {
      renameSync(target, dataDir)
    } catch (error) {
      if (movedAside && !existsSync(dataDir)) renameSync(movedAside, dataDir)
      temp = undefined // kept: the message says where it is
      throw new BackupError(
        `Could not move the restored lake into ${dataDir} (${messageOf(error)}); it is complete in ${target}`,
      )
    }
    temp = undefined
    chmodSync(dataDir, 0o700)
    const tokenFile = options.lakeToken ? undefined : resolveOwnerToken(dataDir).file
    // The new dir's lock moved with it: release it at its new place.
    unlinkSync(join(dataDir, lockFileName))
    return {
      manifest,
      movedAside,
      migratedFrom: manifest.schemaVersion < schemaVersion ? manifest.schemaVersion : undefined,
      tokenFile,
    }
  } catch (error) {
    if (error instanceof BackupError && !replaced)
      throw new BackupError(`${error.message.replace(/\.$/, '')}. ${dataDir} was left as it was`)
    throw error
  } finally {
    lock?.release()
    if (temp) rmSync(temp, {recursive: true, force: true})
  }
}
