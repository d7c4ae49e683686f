import {DatabaseSync} from 'node:sqlite'
import type {DocumentCounts} from './manifest.ts'

export interface SnapshotFacts {
  schemaVersion: number
  counts: DocumentCounts
}

/**
 * Waits this long for SQLite's locks: a reader of a WAL database is blocked only while
 * another connection recovers the WAL after a crash, which takes well under a second.
 */
const busyTimeoutMs = 10_000

const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`

function hasTable(db: DatabaseSync, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  )
}

/** The database's schema version, its documents by type and its transactions. */
export function describeLake(db: DatabaseSync): SnapshotFacts {
  const schemaVersion = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0)
  if (!hasTable(db, 'documents') || !hasTable(db, 'transactions'))
    throw new Error('the database holds no lake (no documents or transactions table)')
  // Before schema 3 a document's row kept its type and JSON; from 3 on its newest revision does.
  const types =
    schemaVersion < 3
      ? db.prepare('SELECT type, COUNT(*) AS n FROM documents GROUP BY type').all()
      : db
          .prepare(
            `SELECT json_extract(r.json, '$._type') AS type, COUNT(*) AS n
             FROM documents d JOIN revisions r ON r.doc_id = d.id AND r.seq = d.seq GROUP BY type`,
          )
          .all()
  const byType: Record<string, number> = {}
  for (const row of types) byType[String(row.type)] = Number(row.n)
  const log = db.prepare('SELECT COUNT(*) AS n, MAX(seq) AS last FROM transactions').get()
  return {
    schemaVersion,
    counts: {
      documents: Object.values(byType).reduce((sum, n) => sum + n, 0),
      transactions: Number(log?.n ?? 0),
      revision: Number(log?.last ?? 0),
      byType,
    },
  }
}

/** `PRAGMA integrity_check`'s findings; empty when the database is sound. */
export function integrityProblems(db: DatabaseSync): string[] {
  const rows = db.prepare('PRAGMA integrity_check').all()
  const found = rows.map((row) => String(row.integrity_check))
  return found.length === 1 && found[0] === 'ok' ? [] : found
}

/**
 * Copies the lake in `dbFile` into `outFile` with `VACUUM INTO`, on a connection of its own:
 * it reads one WAL snapshot, so the copy holds exactly the transactions committed before it
 * began, while the server keeps committing. Then clears the sessions (secure_delete zeroes the
 * freed bytes, so no session hash stays in the file) and checks the copy. Synchronous: run it
 * on a worker thread (snapshot.ts).
 */
export function snapshotLake(dbFile: string, outFile: string): SnapshotFacts {
  const source = new DatabaseSync(dbFile, {readOnly: true})
  try {
    source.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`)
    source.exec(`VACUUM INTO ${sqlString(outFile)}`)
  } finally {
    source.close()
  }
  const copy = new DatabaseSync(outFile)
  try {
    copy.exec('PRAGMA secure_delete = ON')
    if (hasTable(copy, 'sessions')) copy.exec('DELETE FROM sessions')
    const problems = integrityProblems(copy)
    if (problems.length > 0)
      throw new Error(
        `the lake's database fails its integrity check: ${problems.slice(0, 5).join('; ')}`,
      )
    return describeLake(copy)
  } finally {
    copy.close()
  }
}
