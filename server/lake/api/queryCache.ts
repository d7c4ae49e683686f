/**
 * A CDN-style response cache for anonymous queries: keyed by the full request (query, params,
 * perspective), emptied by every committed transaction, so it is never stale.
 */
export class CdnCache {
  private readonly entries = new Map<string, {body: string; etag: string}>()

  private readonly maxEntries: number

  constructor(maxEntries = 2000) {
    this.maxEntries = maxEntries
  }

  get(key: string): {body: string; etag: string} | undefined {
    return this.entries.get(key)
  }

  set(key: string, body: string, etag: string): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(key, {body, etag})
  }

  clear(): void {
    this.entries.clear()
  }

  get size(): number {
    return this.entries.size
  }
}
