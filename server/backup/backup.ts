import {createHash} from 'node:crypto'
import {
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
} from 'node:fs'
import {link} from 'node:fs/promises'
import {backup as sqliteBackup, DatabaseSync} from 'node:sqlite'
import {basename, dirname, join} from 'node:path'
import {pipeline} from 'node:stream/promises'
import {createGzip} from 'node:zlib'
import {BackupError} from './errors.ts'
import {sha256File, sideFiles, type SideFile} from './files.ts'
import {
  backupFormatVersion,
  excluded,
  keyValueFile,
  lakeFile,
  manifestPath,
  statsFile,
  type Manifest,
} from './manifest.ts'
import {takeSnapshot} from './snapshot.ts'
import {ensureFreeSpace, reserveBytes} from './space.ts'
import {tarStream, type TarEntry} from './tarWriter.ts'

export interface BackupResult {
  file: string
  /** The archive's size. */
  bytes: number
  ms: number
  manifest: Manifest
}

export interface BackupOptions {
  /** Bytes that must stay free beside the archive (space.ts). */
  reserve?: number
  now?: () => Date
}

const fileSize = (file: string) => (existsSync(file) ? statSync(file).size : 0)

function fileEntry(path: string, source: string, bytes: number, mtime: Date): TarEntry {
  return {
    path,
    type: 'file',
    mode: 0o600,
    size: bytes,
    mtime,
    body: () => createReadStream(source),
  }
}

/** The archive's entries: the manifest first (a restore checks it before extracting), then the files. */
function entries(manifest: Manifest, files: SideFile[], mtime: Date): TarEntry[] {
  const json = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)
  const list: TarEntry[] = [
    {
      path: manifestPath,
      type: 'file',
      mode: 0o600,
      size: json.length,
      mtime,
      body: async function* () {
        yield json
      },
    },
  ]
  const dirs = new Set(
    files.flatMap((f) => (f.path.includes('/') ? ['assets/', `${dirname(f.path)}/`] : [])),
  )
  for (const dir of dirs) list.push({path: dir, type: 'directory', mode: 0o700, size: 0, mtime})
  for (const f of files) list.push(fileEntry(f.path, f.source, f.bytes, mtime))
  return list
}

/**
 * Streams the entries through gzip into `file` (created 0600, exclusively) and fsyncs it; the
 * files are hashed again on the way, so a file that changed since the manifest was made fails
 * the backup instead of producing an archive that does not verify.
 */
async function writeArchive(file: string, list: TarEntry[], manifest: Manifest): Promise<void> {
  const expected = new Map(manifest.files.map((f) => [f.path, f.sha256]))
  const hashing = list.map((entry): TarEntry => {
    const body = entry.body
    const sha = expected.get(entry.path)
    if (!body || !sha) return entry
    return {
      ...entry,
      body: async function* () {
        const hash = createHash('sha256')
        for await (const chunk of body()) {
          hash.update(chunk)
          yield chunk
        }
        if (hash.digest('hex') !== sha)
          throw new BackupError(`${entry.path} changed while it was archived`)
      },
    }
  })
  // flush: fsync before close, so a backup reported written survives a power cut.
  const out = createWriteStream(file, {flags: 'wx', mode: 0o600, flush: true})
  await pipeline(tarStream(hashing), createGzip(), out)
}

/**
 * A copy of the reader statistics' database (server/stats/store.ts) taken now, by SQLite's
 * online backup, which copies in steps off the main thread while the server keeps writing.
 */
async function snapshotStats(dataDir: string, work: string): Promise<SideFile | undefined> {
  const source = join(dataDir, statsFile)
  if (!existsSync(source)) return undefined
  const copy = join(work, statsFile)
  const db = new DatabaseSync(source, {readOnly: true})
  try {
    await sqliteBackup(db, copy)
  } finally {
    db.close()
  }
  return {path: statsFile, source: copy, bytes: statSync(copy).size}
}

/**
 * Writes one backup of the lake in `dataDir` to `file` (a `.tar.gz` that `tar -xzf` opens):
 * a consistent snapshot of the database without sessions, the images, the Studio's
 * key-value file and the reader statistics, and a manifest with the schema version, document counts and sha256 of every
 * file. Safe while the server runs and writes. Refuses when `file` exists or when the disk
 * could not hold it with room to spare. The archive appears under its name only when complete.
 */
export async function writeBackup(
  dataDir: string,
  file: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const started = performance.now()
  // The manifest's time: the snapshot holds every transaction committed before it.
  const now = options.now?.() ?? new Date()
  const db = join(dataDir, lakeFile)
  if (!existsSync(db))
    throw new BackupError(`No lake in ${dataDir} (set DATA_DIR to the server's data directory)`)
  if (existsSync(file)) throw new BackupError(`${file} already exists; give the backup a new name`)
  const destination = dirname(file)
  if (!existsSync(destination)) throw new BackupError(`${destination} does not exist`)
  const estimate = sideFiles(dataDir)
  // The snapshot (at most the database and its WAL), then the archive (at worst as large as
  // everything it holds, when nothing compresses), both in the destination's filesystem.
  const dbBytes = fileSize(db) + fileSize(`${db}-wal`)
  const need = 2 * dbBytes + estimate.reduce((sum, f) => sum + f.bytes, 0)
  ensureFreeSpace(destination, need, 'the backup', options.reserve ?? reserveBytes)

  // Everything in progress lives in a private (0700) work dir beside the archive, removed at
  // the end, whatever happens: a crash leaves only a `.…work-*` dir, never a half archive.
  const work = mkdtempSync(join(destination, `.${basename(file)}.work-`))
  const partial = join(work, 'archive.tar.gz')
  try {
    const snapshotFile = join(work, lakeFile)
    const facts = await takeSnapshot(db, snapshotFile)
    // The key-value file is rewritten in place by the Studio: archive a copy taken now.
    const files: SideFile[] = [
      {path: lakeFile, source: snapshotFile, bytes: statSync(snapshotFile).size},
      ...sideFiles(dataDir).map((f) => {
        if (f.path !== keyValueFile) return f
        const copy = join(work, keyValueFile)
        copyFileSync(f.source, copy)
        return {...f, source: copy, bytes: statSync(copy).size}
      }),
    ]
    const stats = await snapshotStats(dataDir, work)
    if (stats) files.push(stats)
    const manifest: Manifest = {
      format: 'scriptorium-backup',
      formatVersion: backupFormatVersion,
      createdAt: now.toISOString(),
      schemaVersion: facts.schemaVersion,
      counts: {...facts.counts, images: files.filter((f) => f.path.startsWith('assets/')).length},
      files: [],
      excluded,
    }
    for (const f of files)
      manifest.files.push({path: f.path, bytes: f.bytes, sha256: await sha256File(f.source)})
    await writeArchive(partial, entries(manifest, files, now), manifest)
    // link() fails if `file` appeared meanwhile: a backup never replaces another file.
    await link(partial, file)
    return {file, bytes: statSync(file).size, ms: performance.now() - started, manifest}
  } finally {
    rmSync(work, {recursive: true, force: true})
  }
}
