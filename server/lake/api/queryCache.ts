import type {CachedBody} from '../../http/cachedBody.ts'

/**
 * Memory the anonymous response cache may hold in all. The public site asks a few dozen distinct
 * queries (pages × params) of a few KB to a few hundred KB each: 32 MiB keeps all of them warm
 * many times over, while a visitor who sends thousands of distinct large queries can grow the
 * process by no more than this (before, 2,000 entries of up to 64 MiB each had no byte bound).
 */
export const maxCacheBytes = 32 * 1024 * 1024

/**
 * Largest single answer kept. A bigger one is still served, just not cached: it is not a page's
 * query, and one such entry would evict dozens of real ones.
 */
export const maxCacheEntryBytes = 1024 * 1024

interface Entry {
  body: CachedBody
  bytes: number
}

/**
 * Memory an entry holds: the body's bytes, and its key and validator as JS strings (two bytes per
 * UTF-16 unit in the worst case). The lake's answers are never compressed (api/query.ts), so the
 * body holds no other form.
 */
const sizeOf = (key: string, body: CachedBody) => body.size + 2 * (key.length + body.etag.length)

/**
 * A CDN-style response cache for anonymous queries: keyed by the full request (query, params,
 * perspective), least recently used first out, bounded in bytes, and emptied by every commit that
 * touches a public document (routes.ts), so it is never stale. An answer evaluated across such a
 * commit is not kept: it may predate it (`generation`).
 */
export class QueryCache {
  /** Map order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Entry>()
  private total = 0
  private cleared = 0
  private readonly maxBytes: number
  private readonly maxEntryBytes: number

  constructor(options: {maxBytes?: number; maxEntryBytes?: number} = {}) {
    this.maxBytes = options.maxBytes ?? maxCacheBytes
    this.maxEntryBytes = options.maxEntryBytes ?? maxCacheEntryBytes
  }

  get(key: string): CachedBody | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.body
  }

  /** Read before evaluating an answer, and handed to `set` with it. */
  get generation(): number {
    return this.cleared
  }

  /**
   * Keeps `body` unless the cache was emptied since `generation` was read: that answer was
   * evaluated before or across a commit it does not show, and kept it would be served stale
   * until the next public commit.
   */
  set(key: string, body: CachedBody, generation = this.cleared): void {
    if (generation !== this.cleared) return
    const bytes = sizeOf(key, body)
    this.remove(key)
    if (bytes > this.maxEntryBytes) return
    while (this.total + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.remove(oldest)
    }
    this.entries.set(key, {body, bytes})
    this.total += bytes
  }

  private remove(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.total -= entry.bytes
  }

  clear(): void {
    this.cleared++
    this.entries.clear()
    this.total = 0
  }

  get size(): number {
    return this.entries.size
  }

  /** Memory held by the entries (an upper bound), never above `maxCacheBytes`. */
  get bytes(): number {
    return this.total
  }
}
