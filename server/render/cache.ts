/**
 * A bounded map of rendered pages, least recently used first out. Cleared as a whole on every
 * content change (ctx.onContentChange), never by a timer; `generation` lets a render that
 * started before a change know that its result is already stale.
 */
export class RenderCache<T> {
  private readonly entries = new Map<string, T>()
  private readonly maxEntries: number
  private gen = 0

  constructor(maxEntries = 500) {
    this.maxEntries = maxEntries
  }

  get generation(): number {
    return this.gen
  }

  get(key: string): T | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      // Re-insert: Map keeps insertion order, so the first key is the least recently used.
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  /** Stores `value` unless the content changed since `generation` was read. */
  set(key: string, value: T, generation: number): void {
    if (generation !== this.gen) return
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(key, value)
  }

  clear(): void {
    this.gen++
    this.entries.clear()
  }

  get size(): number {
    return this.entries.size
  }
}
