import {isDeepStrictEqual} from 'node:util'
import type {DatabaseSync} from 'node:sqlite'
import {numberColumn, textColumn} from './database.ts'
import type {KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions} from '@fedify/fedify'

/** Fedify's TTLs are Temporal durations; a missing one keeps the value for good. */
function expiry(options: KvStoreSetOptions | undefined, now: number): number | null {
  if (!options?.ttl) return null
  return now + Math.round(options.ttl.total({unit: 'millisecond'}))
}

const encode = (key: KvKey) => JSON.stringify(key)

function isKvKey(value: unknown): value is KvKey {
  return Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string')
}

/** A stored value, as the caller's type: Fedify reads back only what it wrote under that key. */
function parse<T>(json: string): T {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Fedify's generic get<T>: the value it stored
  return JSON.parse(json) as T
}

interface Row {
  key: string
  value: string
}

/**
 * Fedify's `KvStore` (its caches of remote documents and keys, the inbox's seen activity ids)
 * over the social database (database.ts). `@fedify/sqlite` is not published for Fedify 2, so
 * this is the same interface over `node:sqlite`. Keys are stored as their JSON array text, so a
 * prefix is a text prefix of the array without its closing bracket.
 */
export class SqliteKvStore implements KvStore {
  private readonly db: DatabaseSync
  private readonly now: () => number

  constructor(db: DatabaseSync, now: () => number = Date.now) {
    this.db = db
    this.now = now
  }

  private read(key: KvKey): Row | undefined {
    const found = this.db
      .prepare('SELECT key, value, expires FROM kv WHERE key = ?')
      .get(encode(key))
    if (!found) return undefined
    const row = {key: textColumn(found, 'key'), value: textColumn(found, 'value')}
    const expires = numberColumn(found, 'expires')
    if (expires !== null && expires <= this.now()) {
      this.db.prepare('DELETE FROM kv WHERE key = ?').run(row.key)
      return undefined
    }
    return row
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = this.read(key)
    return row ? parse<T>(row.value) : undefined
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    this.db
      .prepare('INSERT OR REPLACE INTO kv (key, value, expires) VALUES (?, ?, ?)')
      .run(encode(key), JSON.stringify(value), expiry(options, this.now()))
  }

  async delete(key: KvKey): Promise<void> {
    this.db.prepare('DELETE FROM kv WHERE key = ?').run(encode(key))
  }

  /** Synchronous from read to write: no other caller runs in between (one event loop). */
  async cas(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    const row = this.read(key)
    const current: unknown = row ? JSON.parse(row.value) : undefined
    if (!isDeepStrictEqual(current, expectedValue)) return false
    if (newValue === undefined) this.db.prepare('DELETE FROM kv WHERE key = ?').run(encode(key))
    else
      this.db
        .prepare('INSERT OR REPLACE INTO kv (key, value, expires) VALUES (?, ?, ?)')
        .run(encode(key), JSON.stringify(newValue), expiry(options, this.now()))
    return true
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const now = this.now()
    const exact = prefix ? encode(prefix) : undefined
    const start = exact ? `${exact.slice(0, -1)},` : '['
    const rows = this.db
      .prepare(
        'SELECT key, value FROM kv WHERE (key = ? OR substr(key, 1, length(?)) = ?) AND (expires IS NULL OR expires > ?) ORDER BY key',
      )
      .all(exact ?? '', start, start, now)
    for (const row of rows) {
      const key: unknown = JSON.parse(textColumn(row, 'key'))
      if (!isKvKey(key)) continue
      yield {key, value: JSON.parse(textColumn(row, 'value')) as unknown}
    }
  }

  /** Drops expired entries: called now and then so caches do not grow the file for ever. */
  sweep(): void {
    this.db.prepare('DELETE FROM kv WHERE expires IS NOT NULL AND expires <= ?').run(this.now())
  }
}
