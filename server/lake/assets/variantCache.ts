/** A transformed image as sent: its bytes and content type. */
export interface Variant {
  bytes: Buffer
  type: string
}

/**
 * Transformed images bounded in bytes, all of them: every distinct URL is a new entry, so a
 * flood of distinct parameters only evicts. 64 MiB holds the Studio's thumbnails and a page's
 * srcset many times over.
 */
export const maxVariantCacheBytes = 64 * 1024 * 1024
/** A variant over this is sent but not kept: one would push out hundreds of thumbnails. */
export const maxVariantBytes = 8 * 1024 * 1024
/**
 * What an entry costs besides its bytes (the key, the Map slot, the Buffer object), counted so
 * that millions of 100-byte variants cannot hold far more memory than the byte bound says.
 */
const entryOverheadBytes = 512

/** Least recently used first out (a Map iterates in insertion order; a hit re-inserts). */
export class VariantCache {
  private readonly entries = new Map<string, Variant>()
  private bytes = 0
  private readonly maxBytes: number

  constructor(maxBytes = maxVariantCacheBytes) {
    this.maxBytes = maxBytes
  }

  /** Bytes held, overhead included. */
  get size(): number {
    return this.bytes
  }

  get count(): number {
    return this.entries.size
  }

  /** Whether `key` is held, without making it recently used. */
  has(key: string): boolean {
    return this.entries.has(key)
  }

  get(key: string): Variant | undefined {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(key: string, value: Variant): void {
    if (value.bytes.length > maxVariantBytes || this.entries.has(key)) return
    this.entries.set(key, value)
    this.bytes += cost(key, value)
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldKey)
      this.bytes -= cost(oldKey, old)
    }
  }
}

function cost(key: string, value: Variant): number {
  return value.bytes.length + key.length * 2 + entryOverheadBytes
}
