import {execFileSync} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, rmSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/** A filesystem of its own, small enough to fill in a test: a tmpfs the test mounts itself. */
export interface SmallDisk {
  dir: string
  /** Writes a filler file until the filesystem answers ENOSPC; returns the bytes written. */
  fill(): number
  /** Deletes the filler: the space is back. */
  free(): void
  /** Unmounts and removes the mount point. */
  remove(): void
}

const fillerName = 'zz-filler'

/**
 * Mounts a `sizeBytes` tmpfs on a fresh directory (`mount` needs root, which the test machines
 * have), or returns undefined when mounting is not allowed here.
 */
export function mountSmallDisk(sizeBytes: number): SmallDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-small-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', dir], {
      stdio: 'ignore',
    })
  } catch {
    rmSync(dir, {recursive: true, force: true})
    return undefined
  }
  const filler = join(dir, fillerName)
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a')
      let written = 0
      try {
        // Big chunks first, then single pages, so not even a page is left.
        for (const chunk of [Buffer.alloc(1 << 20), Buffer.alloc(4096), Buffer.alloc(1)]) {
          for (;;) {
            try {
              written += writeSync(fd, chunk)
            } catch (error) {
              if (error instanceof Error && 'code' in error && error.code === 'ENOSPC') break
              throw error
            }
          }
        }
      } finally {
        closeSync(fd)
      }
      return written
    },
    free() {
      rmSync(filler, {force: true})
    },
    remove() {
      execFileSync('umount', ['-l', dir], {stdio: 'ignore'})
      rmSync(dir, {recursive: true, force: true})
    },
  }
}
