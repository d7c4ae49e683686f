/**
 * Tags remembered as dropped, for renders still in flight; past this many the memory is cleared
 * and every render older than that moment is refused instead (sound, and bounded).
 */
const maxDroppedTags = 1_024

interface Entry<T> {
  value: T
  tags: readonly string[]
  /** The cache's clock when last stored or read: the lowest is the least recently used. */
  usedAt: number
}

/**
 * A bounded map of rendered pages, least recently used first out, with an index from each sync
 * tag to the pages built from answers carrying it (server/live/contentEvents.ts). A live message
 * drops the pages of its tags; pages whose queries carried no tags (no queries at all) stay.
 * `generation` lets a render that started before a change touching its tags know that its
 * result is already stale: `set` refuses it.
 */
export class RenderCache<T> {
  private readonly entries = new Map<string, Entry<T>>()
  private readonly byTag = new Map<string, Set<string>>()
  private readonly maxEntries: number
  private gen = 0
  /** The generation at which each tag was last dropped. */
  private readonly droppedAt = new Map<string, number>()
  /** Renders started before this generation are refused: a clear, or forgotten drops. */
  private refusedBefore = 0
  /** Counts reads and writes, to stamp entries with (`usedAt`). */
  private clock = 0

  constructor(maxEntries = 500) {
    this.maxEntries = maxEntries
  }

  /** Changes on every drop or clear: read it when a render starts, hand it to `set`. */
  get generation(): number {
    return this.gen
  }

  /**
   * A hit is stamped, not moved: taking the key out of the Map and putting it back on every hit
   * made V8 rebuild the table as it filled with holes (every hit, with one page cached), a fair
   * part of a cached page's time. Finding the least recently used is left to `set`, when full.
   */
  get(key: string): T | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    entry.usedAt = ++this.clock
    return entry.value
  }

  /**
   * Stores `value`, built from answers carrying `tags`, unless something it depends on changed
   * since `generation` was read. Returns whether it was stored.
   */
  set(key: string, value: T, tags: readonly string[], generation: number): boolean {
    if (generation < this.refusedBefore) return false
    if (tags.some((tag) => (this.droppedAt.get(tag) ?? -1) > generation)) return false
    this.remove(key)
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.leastRecentlyUsed()
      if (oldest !== undefined) this.remove(oldest)
    }
    this.entries.set(key, {value, tags, usedAt: ++this.clock})
    for (const tag of tags) {
      let keys = this.byTag.get(tag)
      if (!keys) this.byTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
    return true
  }

  /** Drops every page built from an answer carrying one of `tags`; returns how many. */
  drop(tags: readonly string[]): number {
    this.gen++
    if (this.droppedAt.size + tags.length > maxDroppedTags) {
      this.droppedAt.clear()
      this.refusedBefore = this.gen
    }
    let dropped = 0
    for (const tag of tags) {
      this.droppedAt.set(tag, this.gen)
      for (const key of [...(this.byTag.get(tag) ?? [])]) if (this.remove(key)) dropped++
    }
    return dropped
  }

  /** Drops everything, and refuses every render already started. */
  clear(): void {
    this.gen++
    this.refusedBefore = this.gen
    this.droppedAt.clear()
    this.entries.clear()
    this.byTag.clear()
  }

  /** Every entry, for keeping them as stale copies when the store goes away. */
  values(): Array<[string, T]> {
    return [...this.entries].map(([key, entry]) => [key, entry.value])
  }

  get size(): number {
    return this.entries.size
  }

  /** A walk over the entries: once per page stored into a full cache, a render's fraction. */
  private leastRecentlyUsed(): string | undefined {
    let oldest: string | undefined
    let oldestAt = Infinity
    for (const [key, entry] of this.entries) {
      if (entry.usedAt < oldestAt) {
        oldest = key
        oldestAt = entry.usedAt
      }
    }
    return oldest
  }

  private remove(key: string): boolean {
    const entry = this.entries.get(key)
    if (!entry) return false
    this.entries.delete(key)
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) this.byTag.delete(tag)
    }
    return true
  }
}
