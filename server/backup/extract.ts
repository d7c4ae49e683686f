import {createHash} from 'node:crypto'
import {createReadStream, mkdirSync} from 'node:fs'
import {open, type FileHandle} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {pipeline} from 'node:stream/promises'
import {createGunzip} from 'node:zlib'
import {BackupError, errorCode} from './errors.ts'
import {
  allowedPath,
  manifestPath,
  maxManifestBytes,
  parseManifest,
  type Manifest,
} from './manifest.ts'
import {readTar, type EntrySink, type TarEntryHeader} from './tarReader.ts'
import {messageOf} from '../util/messageOf.ts'

/** The directories a backup's files live in (tarWriter entries end with `/`). */
const allowedDirs = new Set(['assets/', 'assets/images/'])

/** zlib's error codes for input it cannot decode, in words an owner can act on. */
function gzipProblem(error: unknown): string | undefined {
  const code = errorCode(error)
  if (code === 'Z_BUF_ERROR') return 'the archive ends early (it is truncated)'
  if (code === 'Z_DATA_ERROR') return `the archive is corrupt (gzip: ${messageOf(error)})`
  return undefined
}

/**
 * One extraction's state: the manifest once read, the hash of each file written, and the file
 * being written (closed if the archive breaks off mid-file).
 */
class Extraction {
  manifest: Manifest | undefined
  readonly hashes = new Map<string, string>()
  writing: FileHandle | undefined

  private readonly dir: string
  private readonly checkManifest: (manifest: Manifest) => void

  constructor(dir: string, checkManifest: (manifest: Manifest) => void) {
    this.dir = dir
    this.checkManifest = checkManifest
  }

  /** The sink for the tar entry `entry`: the manifest first, then only the files it lists. */
  readonly visit = async (entry: TarEntryHeader): Promise<EntrySink> => {
    const manifest = this.manifest
    if (!manifest) {
      if (entry.path !== manifestPath || entry.type !== 'file')
        throw new BackupError(
          'this is not a Scriptorium backup (its first entry is not a manifest)',
        )
      if (entry.size > maxManifestBytes)
        throw new BackupError('the archive is corrupt (its manifest is too large)')
      return this.manifestSink()
    }
    if (entry.type === 'directory') {
      if (!allowedDirs.has(entry.path))
        throw new BackupError(`the archive holds an unexpected directory: ${entry.path}`)
      mkdirSync(join(this.dir, entry.path), {recursive: true, mode: 0o700})
      return {write: async () => undefined, end: async () => undefined}
    }
    const listed = manifest.files.find((file) => file.path === entry.path)
    if (!listed || !allowedPath(entry.path) || this.hashes.has(entry.path))
      throw new BackupError(`the archive holds a file its manifest does not list: ${entry.path}`)
    if (listed.bytes !== entry.size)
      throw new BackupError(
        `the archive is corrupt (${entry.path} is not the size its manifest states)`,
      )
    return this.fileSink(entry.path)
  }

  private manifestSink(): EntrySink {
    const chunks: Buffer[] = []
    return {
      write: async (chunk) => void chunks.push(Buffer.from(chunk)),
      end: async () => {
        this.manifest = parseManifest(Buffer.concat(chunks).toString('utf8'))
        this.checkManifest(this.manifest)
      },
    }
  }

  private async fileSink(path: string): Promise<EntrySink> {
    mkdirSync(dirname(join(this.dir, path)), {recursive: true, mode: 0o700})
    const handle = await open(join(this.dir, path), 'wx', 0o600)
    this.writing = handle
    const hash = createHash('sha256')
    return {
      write: async (chunk) => {
        hash.update(chunk)
        await handle.write(chunk)
      },
      end: async () => {
        await handle.close()
        this.writing = undefined
        this.hashes.set(path, hash.digest('hex'))
      },
    }
  }

  /** Every file the manifest lists was written, with the checksum it states. */
  checked(): Manifest {
    const manifest = this.manifest
    if (!manifest) throw new BackupError('the archive is empty')
    for (const file of manifest.files) {
      const sha = this.hashes.get(file.path)
      if (sha === undefined)
        throw new BackupError(`the archive is incomplete: ${file.path} is missing`)
      if (sha !== file.sha256)
        throw new BackupError(`the archive is corrupt: ${file.path} does not match its checksum`)
    }
    return manifest
  }
}

/**
 * Extracts a backup into the empty directory `dir`, checking as it goes: the manifest comes
 * first and is checked by `checkManifest` before any file is written; only the paths the
 * manifest lists are written, each with the size it states; every file's sha256 is compared
 * at the end. Throws a BackupError for anything that does not match.
 */
export async function extractBackup(
  archive: string,
  dir: string,
  checkManifest: (manifest: Manifest) => void,
): Promise<Manifest> {
  const extraction = new Extraction(dir, checkManifest)
  try {
    await pipeline(
      createReadStream(archive),
      createGunzip(),
      async (source: AsyncIterable<Buffer>) => readTar(source, extraction.visit),
    )
  } catch (error) {
    await extraction.writing?.close().catch(() => undefined)
    if (error instanceof BackupError) throw error
    const problem = gzipProblem(error)
    if (problem) throw new BackupError(problem)
    throw error
  }
  return extraction.checked()
}
