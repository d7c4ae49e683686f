import type {DatabaseSync, StatementSync} from 'node:sqlite'
import {isDoc, type Doc} from '../types.ts'
import {isRecord} from '../../util/isRecord.ts'
import type {TextIndexWriter} from '../textQuery/textIndexWriter.ts'

/**
 * A revision's stored JSON. Only documents that passed validation are written, so anything else
 * means the database file was damaged: fail loudly rather than serve it.
 */
export function parseStoredDoc(json: unknown): Doc {
  const value: unknown = JSON.parse(String(json))
  if (!isDoc(value)) throw new Error('Damaged database: a stored revision is not a document')
  return value
}

/**
 * Each current document's JSON, in the order of `*` (documentOrder.ts): the store and every
 * query worker's replica read the documents with this, so after a restart they all agree.
 */
export const currentDocumentsInOrder =
  'SELECT r.json FROM documents d JOIN revisions r ON r.doc_id = d.id AND r.seq = d.seq ORDER BY d.position'

/** A log entry's mutations column: per document, the mutations applied (`[{id, mutations}]`). */
export function parseLogEntries(json: unknown): Array<{id: string; mutations: unknown[]}> {
  const value: unknown = JSON.parse(String(json))
  const entries = Array.isArray(value) ? value : []
  const valid = entries.filter(
    (entry): entry is {id: string; mutations: unknown[]} =>
      isRecord(entry) && typeof entry.id === 'string' && Array.isArray(entry.mutations),
  )
  if (!Array.isArray(value) || valid.length !== entries.length)
    throw new Error('Damaged database: a transaction log entry is not [{id, mutations}]')
  return valid
}

/** One transaction as rows of the log (store.ts's schema), serialized once. */
export interface TransactionRow {
  seq: number
  id: string
  time: string
  author: string
  /** JSON: per document, the mutations applied (`[{id, mutations}]`). */
  mutations: string
  /** Each touched document after the transaction; `json` null when it was deleted. */
  docs: Array<{
    id: string
    rev: string | null
    json: string | null
    words: string | null
    /** Its place in `*` if it is new (documentOrder.ts); a present row keeps its own. */
    position: number
  }>
}

export interface RowStatements {
  insertTx: StatementSync
  upsertDoc: StatementSync
  deleteDoc: StatementSync
  insertRevision: StatementSync
  textIndex: TextIndexWriter
}

export function prepareRowStatements(db: DatabaseSync, textIndex: TextIndexWriter): RowStatements {
  return {
    textIndex,
    insertTx: db.prepare(
      'INSERT INTO transactions (seq, id, time, author, mutations) VALUES (?, ?, ?, ?, ?)',
    ),
    // `documents` points at each current document's newest revision: its JSON is stored once.
    // A replaced document keeps its position, the order of `*` (documentOrder.ts).
    upsertDoc: db.prepare(
      'INSERT INTO documents (id, seq, position) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq',
    ),
    deleteDoc: db.prepare('DELETE FROM documents WHERE id = ?'),
    insertRevision: db.prepare(
      'INSERT INTO revisions (doc_id, seq, rev, json) VALUES (?, ?, ?, ?)',
    ),
  }
}

/**
 * Writes `rows` in one SQLite transaction (group commit: one fsync for all of them), all or
 * none, with the text index's rows for the same documents (textQuery/textIndex.ts), so the
 * index is never behind the documents. Returns only after COMMIT, which with WAL and
 * synchronous=FULL means durable.
 */
export function writeRows(
  db: DatabaseSync,
  statements: RowStatements,
  rows: TransactionRow[],
): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    for (const row of rows) {
      statements.insertTx.run(row.seq, row.id, row.time, row.author, row.mutations)
      for (const doc of row.docs) {
        if (doc.json === null) statements.deleteDoc.run(doc.id)
        else statements.upsertDoc.run(doc.id, row.seq, doc.position)
        statements.insertRevision.run(doc.id, row.seq, doc.rev, doc.json)
        statements.textIndex.write(doc.id, doc.words)
      }
    }
    const last = rows.at(-1)
    if (last) statements.textIndex.reached(last.seq)
    db.exec('COMMIT')
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    statements.textIndex.rolledBack()
    throw error
  }
  statements.textIndex.committed()
}
