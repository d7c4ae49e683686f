import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {privateFileMode, tightenMode} from '../util/durableFile.ts'
import {isRecord} from '../util/isRecord.ts'

/** The file in DATA_DIR that holds Fedify's key–value store and its delivery queue. */
export const socialDbFile = 'social.sqlite'

/**
 * The social web's own SQLite database, beside the lake's (not inside it: the lake's file is the
 * lake's, server/lake/index.ts is its only door). WAL with `synchronous=FULL`: a queue row
 * taken for sending is on disk before the send starts and its acknowledgement once
 * committed is final, which queue.ts's crash rule rests on.
 */
export function openSocialDatabase(dataDir: string): DatabaseSync {
  const path = join(dataDir, socialDbFile)
  const db = new DatabaseSync(path)
  tightenMode(path, privateFileMode)
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = FULL;
    PRAGMA busy_timeout = 5000;
    CREATE TABLE IF NOT EXISTS kv (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      expires INTEGER
    );
    CREATE TABLE IF NOT EXISTS queue (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      message TEXT NOT NULL,
      due INTEGER NOT NULL,
      taken INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS queue_due ON queue (name, taken, due, id);
    CREATE TABLE IF NOT EXISTS queue_seen (
      key TEXT PRIMARY KEY,
      at INTEGER NOT NULL
    );
  `)
  return db
}

/** A column of a row `node:sqlite` returned, checked: rows come back as untyped records. */
export function column(row: unknown, name: string): string | number | null {
  if (!isRecord(row)) throw new Error(`Damaged social database: a row is not a record`)
  const value = row[name]
  if (value === null || typeof value === 'string' || typeof value === 'number') return value
  if (typeof value === 'bigint') return Number(value)
  throw new Error(`Damaged social database: column ${name} is not text or a number`)
}

export const textColumn = (row: unknown, name: string): string => String(column(row, name))

export function numberColumn(row: unknown, name: string): number | null {
  const value = column(row, name)
  return value === null ? null : Number(value)
}
