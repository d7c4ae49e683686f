import {randomBytes} from 'node:crypto'
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import {link, open, rename, unlink} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'

/**
 * Files in DATA_DIR: owner-only, and replaced atomically and durably. The data dir holds the
 * owner token, the TLS key, the lake and the Studio's settings: nobody else on the machine may
 * read them, whatever the umask.
 */

/** rwx------: directories of the data dir. */
export const privateDirMode = 0o700
/** rw-------: every file of the data dir. */
export const privateFileMode = 0o600

/** Sets `path`'s mode if it exists; a data dir we may not chmod (not ours) is a warning, not a stop. */
export function tightenMode(path: string, mode: number): void {
  let current: number
  try {
    current = statSync(path).mode & 0o777
  } catch {
    return
  }
  if (current === mode) return
  try {
    chmodSync(path, mode)
  } catch (error) {
    console.warn(`[data] could not set ${path} to ${mode.toString(8)}: ${String(error)}`)
  }
}

/** Creates `dir` (and missing parents) as 0700, and tightens it if it exists with a looser mode. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, {recursive: true, mode: privateDirMode})
  tightenMode(dir, privateDirMode)
}

/** A temp name beside `path` that no other write (or process) picks: `<name>.<pid>.<hex>.tmp`. */
function tempName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
}
const tempPattern = /\.\d+\.[0-9a-f]{12}\.tmp$/

/**
 * The rename is durable only once the directory entry is on disk (fsync of the directory, as
 * SQLite does for its journals). Some platforms cannot open or sync a directory; there the
 * rename is as durable as the platform makes it.
 */
async function syncDir(dir: string): Promise<void> {
  let handle
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch (error) {
    if (!isUnsupported(error)) throw error
  } finally {
    await handle?.close()
  }
}

function syncDirSync(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch (error) {
    if (!isUnsupported(error)) throw error
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

function codeOf(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined
}

function isUnsupported(error: unknown): boolean {
  const code = codeOf(error)
  return code === 'EISDIR' || code === 'EINVAL' || code === 'EPERM' || code === 'EACCES'
}

/**
 * Replaces `path` with `data` so that a crash leaves either the old file or the new one, never a
 * torn one: write a temp file, fsync it, rename it into place, fsync the directory. On failure
 * (a full disk) the temp file is removed and `path` is unchanged. Async, so the event loop keeps
 * serving while the disk syncs.
 */
export async function writeFileDurably(
  path: string,
  data: string | Uint8Array,
  mode = privateFileMode,
): Promise<void> {
  const temp = tempName(path)
  try {
    const handle = await open(temp, 'wx', mode)
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
  await syncDir(dirname(path))
}

/**
 * Creates `path` with `data` unless it exists, never leaving a torn file: the data is written
 * and synced under a temp name, then hard-linked into place, which fails if `path` is there.
 * Returns false when another writer created `path` first (its file stands). On a full disk the
 * temp file is removed and `path` does not appear.
 */
export async function createFileDurably(
  path: string,
  data: string | Uint8Array,
  mode = privateFileMode,
): Promise<boolean> {
  const temp = tempName(path)
  try {
    const handle = await open(temp, 'wx', mode)
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await link(temp, path)
  } catch (error) {
    if (codeOf(error) === 'EEXIST' && existsSync(path)) return false
    throw error
  } finally {
    await unlink(temp).catch(() => undefined)
  }
  await syncDir(dirname(path))
  return true
}

/** `writeFileDurably` for start-up, before anything is served (the owner token, the TLS key). */
export function writeFileDurablySync(
  path: string,
  data: string | Uint8Array,
  mode = privateFileMode,
): void {
  const temp = tempName(path)
  try {
    const fd = openSync(temp, 'wx', mode)
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data
      for (let written = 0; written < bytes.length;)
        written += writeSync(fd, bytes, written, bytes.length - written)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, {force: true})
    throw error
  }
  syncDirSync(dirname(path))
}

/** `createFileDurably` for start-up, before anything is served (the newsletter's key). */
export function createFileDurablySync(
  path: string,
  data: string | Uint8Array,
  mode = privateFileMode,
): boolean {
  const temp = tempName(path)
  try {
    writeFileDurablySync(temp, data, mode)
    linkSync(temp, path)
  } catch (error) {
    if (codeOf(error) === 'EEXIST' && existsSync(path)) return false
    throw error
  } finally {
    rmSync(temp, {force: true})
  }
  syncDirSync(dirname(path))
  return true
}

/** Removes temp files a crash left behind in `dir` (only names `writeFileDurably` makes). */
export function removeStaleTemps(dir: string, prefix = ''): void {
  if (!existsSync(dir)) return
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix) && tempPattern.test(name)) rmSync(join(dir, name), {force: true})
  }
}

/**
 * Moves a side file that cannot be read aside (`<name>.corrupt-<time>`) so the server starts
 * without it, and says so: the owner can look at it, nothing is deleted. Returns the new path.
 */
export function moveAside(path: string, reason: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const aside = `${path}.corrupt-${stamp}`
  renameSync(path, aside)
  console.warn(
    `[data] ${basename(path)} could not be read (${reason}); moved aside to ${aside}, starting without it`,
  )
  return aside
}

/** Unlinks `path` if it exists (cleanup after a refused write). */
export function removeIfPresent(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // already gone
  }
}
