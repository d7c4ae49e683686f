/**
 * How long an entry lives while the content store's live events do not flow (before the first
 * welcome, after a failure): a fallback, since nothing then says when the content changed.
 */
export const hostedTtlMs = 60_000

export interface GeneratedCacheOptions {
  /**
   * Entries expire after this long (asked on every read); undefined means they live until
   * `invalidate()`.
   */
  ttlMs?: number | (() => number | undefined)
  /** Injected clock, for tests. */
  now?: () => number
}

interface Entry<T> {
  value: Promise<T>
  createdAt: number
}

/**
 * Generated documents (sitemap, feeds) keyed by name, built once and served until content
 * changes. A build already running when `invalidate()` is called still answers the callers
 * waiting on it but is no longer stored, so a commit during a build cannot leave a stale entry.
 * Failed builds are not stored either: the next request tries again.
 */
export class GeneratedCache<T> {
  private readonly entries = new Map<string, Entry<T>>()
  private readonly ttlMs: () => number | undefined
  private readonly now: () => number

  constructor(options: GeneratedCacheOptions = {}) {
    const ttl = options.ttlMs
    this.ttlMs = typeof ttl === 'function' ? ttl : () => ttl
    this.now = options.now ?? Date.now
  }

  /** The cached value for `key`, or the result of `build()`, which is then cached. */
  get(key: string, build: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key)
    const ttlMs = this.ttlMs()
    if (hit && (ttlMs === undefined || this.now() - hit.createdAt < ttlMs)) return hit.value
    const value = build()
    const entry = {value, createdAt: this.now()}
    this.entries.set(key, entry)
    // A failed build is forgotten (unless a newer one has replaced it meanwhile).
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key)
    })
    return value
  }

  /** Drops every entry, including builds in flight: later callers start a fresh build. */
  invalidate(): void {
    this.entries.clear()
  }
}
