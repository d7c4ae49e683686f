import {createHash} from 'node:crypto'
import {readdirSync, rmSync, statSync} from 'node:fs'
import {readFile, rename, unlink, utimes, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {ensurePrivateDir, privateFileMode} from '../../util/durableFile.ts'
import {maxVariantBytes, type Variant} from './variantCache.ts'

/**
 * Bytes of transformed images kept on disk. 256 MiB is some 10,000 srcset variants of 25 KB:
 * every cover, body image and thumbnail of a blog many times this one's size, at every width.
 */
export const maxVariantDiskBytes = 256 * 1024 * 1024

/** The content type of a variant by its file extension, and back. */
const types: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
}
const extensionOf = (type: string) =>
  Object.entries(types).find(([, t]) => t === type)?.[0] ?? 'bin'

const variantName = /^[0-9a-f]{64}\.(jpg|png|webp|avif)$/

interface Entry {
  size: number
  /** Last written or read (ms): the oldest go first when over the bound. */
  used: number
}

/**
 * Transformed images on disk, under DATA_DIR/cache/images, so variants survive a restart: a
 * restarted server answers a page's srcset from disk, not with a burst of cold transforms. It is
 * derived data: bounded in bytes (oldest used first out), never in a backup (server/backup/files.ts
 * lists only assets/), and safe to delete. Files are named by the hash of the variant's key.
 */
export class VariantDiskCache {
  readonly dir: string
  private readonly maxBytes: number
  /** Least recently used first (Map order); rebuilt from the directory at start. */
  private readonly entries = new Map<string, Entry>()
  private bytes = 0

  /** `folder` under DATA_DIR/cache: one per cache tier (variantTiers.ts). */
  constructor(dataDir: string, maxBytes = maxVariantDiskBytes, folder = 'images') {
    this.dir = join(dataDir, 'cache', folder)
    this.maxBytes = maxBytes
    ensurePrivateDir(join(dataDir, 'cache'))
    ensurePrivateDir(this.dir)
    const names = readdirSync(this.dir)
    // Anything else here is a temporary file a crash left behind: the directory is ours alone.
    for (const name of names.filter((name) => !variantName.test(name)))
      rmSync(join(this.dir, name), {force: true})
    const found = names
      .filter((name) => variantName.test(name))
      .map((name) => {
        const info = statSync(join(this.dir, name))
        return {name, size: info.size, used: info.mtimeMs}
      })
      .sort((a, b) => a.used - b.used)
    for (const {name, size, used} of found) {
      this.entries.set(name, {size, used})
      this.bytes += size
    }
    void this.evict()
  }

  /** Bytes held on disk. */
  get size(): number {
    return this.bytes
  }

  private nameOf(key: string, type: string): string {
    return `${createHash('sha256').update(key).digest('hex')}.${extensionOf(type)}`
  }

  /** Whether a variant is stored for `key` (of content `type`), without reading it. */
  has(key: string, type: string): boolean {
    return this.entries.has(this.nameOf(key, type))
  }

  /** The variant stored for `key` (of content `type`), or undefined. */
  async get(key: string, type: string): Promise<Variant | undefined> {
    const name = this.nameOf(key, type)
    const entry = this.entries.get(name)
    if (!entry) return undefined
    try {
      const bytes = await readFile(join(this.dir, name))
      entry.used = Date.now()
      this.entries.delete(name)
      this.entries.set(name, entry)
      // The mtime carries the order across restarts; losing it only makes an entry look older.
      const now = new Date(entry.used)
      void utimes(join(this.dir, name), now, now).catch(() => undefined)
      return {bytes, type}
    } catch {
      this.forget(name)
      return undefined
    }
  }

  /** Stores a variant (written to a temporary file, then renamed: a reader never sees half). */
  async set(key: string, variant: Variant): Promise<void> {
    const name = this.nameOf(key, variant.type)
    if (this.entries.has(name) || variant.bytes.length > maxVariantBytes) return
    const file = join(this.dir, name)
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    try {
      await writeFile(temp, variant.bytes, {mode: privateFileMode})
      await rename(temp, file)
    } catch (error) {
      // A full disk or a read-only data dir costs the cache, never the response.
      await unlink(temp).catch(() => undefined)
      console.warn(`[images] variant not cached on disk: ${String(error)}`)
      return
    }
    this.entries.set(name, {size: variant.bytes.length, used: Date.now()})
    this.bytes += variant.bytes.length
    await this.evict()
  }

  private forget(name: string): void {
    const entry = this.entries.get(name)
    if (!entry) return
    this.entries.delete(name)
    this.bytes -= entry.size
  }

  /** Removes the least recently used files until the cache is within its bound. */
  private async evict(): Promise<void> {
    for (const name of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break
      this.forget(name)
      await unlink(join(this.dir, name)).catch(() => undefined)
    }
  }
}
