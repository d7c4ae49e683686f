import type {DatabaseSync} from 'node:sqlite'
import type {Doc} from '../types.ts'
import {parseStoredDoc} from '../store/storeRows.ts'

/**
 * Read-only queries over the transaction log (tables `transactions` and `revisions` of
 * store.ts) for the History API. Times are compared with SQLite's julianday() because
 * stored timestamps mix second and millisecond precision, which string order gets wrong.
 */

const parse = (json: unknown): Doc | null => (json == null ? null : parseStoredDoc(json))

export interface SeqBounds {
  fromSeq?: number
  toSeq?: number
  limit: number
  reverse: boolean
}

/** Positions of the transactions that touched any of `docIds`, oldest first unless reversed. */
export function historySeqs(db: DatabaseSync, docIds: string[], bounds: SeqBounds): number[] {
  const marks = docIds.map(() => '?').join(',')
  const rows = db
    .prepare(
      `SELECT DISTINCT seq FROM revisions WHERE doc_id IN (${marks}) AND seq >= ? AND seq <= ?
       ORDER BY seq ${bounds.reverse ? 'DESC' : 'ASC'} LIMIT ?`,
    )
    .all(...docIds, bounds.fromSeq ?? 0, bounds.toSeq ?? Number.MAX_SAFE_INTEGER, bounds.limit)
  return rows.map((row) => Number(row.seq))
}

/**
 * Positions of the transactions that touched `docId` or any id starting with `prefix` (a
 * release's document and its versions), newest first. The prefix is a range on the primary key
 * (`prefix` up to `prefix` with its last character incremented), so SQLite reads only those rows.
 */
export function prefixSeqs(
  db: DatabaseSync,
  docId: string,
  prefix: string,
  bounds: {toSeq: number; limit: number},
): number[] {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
  const rows = db
    .prepare(
      `SELECT DISTINCT seq FROM revisions
       WHERE (doc_id = ? OR (doc_id >= ? AND doc_id < ?)) AND seq <= ?
       ORDER BY seq DESC LIMIT ?`,
    )
    .all(docId, prefix, end, bounds.toSeq, bounds.limit)
  return rows.map((row) => Number(row.seq))
}

/**
 * The log position of a transaction id, or of a revision of one of `docIds` (imported
 * documents keep the `_rev` they were exported with, which is no transaction id here), or else
 * of any document: the Studio asks for a new draft's history from its published document's
 * revision (the Presentation tool does on opening an imported post).
 */
export function seqOf(db: DatabaseSync, id: string, docIds: string[]): number | undefined {
  const tx = db.prepare('SELECT seq FROM transactions WHERE id = ?').get(id)
  if (tx) return Number(tx.seq)
  const marks = docIds.map(() => '?').join(',')
  const rev = db
    .prepare(`SELECT MAX(seq) AS seq FROM revisions WHERE rev = ? AND doc_id IN (${marks})`)
    .get(id, ...docIds)
  if (rev?.seq != null) return Number(rev.seq)
  const anyDoc = db.prepare('SELECT MAX(seq) AS seq FROM revisions WHERE rev = ?').get(id)
  return anyDoc?.seq == null ? undefined : Number(anyDoc.seq)
}

/** The first transaction at or after `iso` (side 'from') or the last at or before it ('to'). */
export function seqAtTime(db: DatabaseSync, iso: string, side: 'from' | 'to'): number {
  const sql =
    side === 'from'
      ? 'SELECT MIN(seq) AS seq FROM transactions WHERE julianday(time) >= julianday(?)'
      : 'SELECT MAX(seq) AS seq FROM transactions WHERE julianday(time) <= julianday(?)'
  const row = db.prepare(sql).get(iso)
  // No transaction in range: a bound nothing satisfies.
  return row?.seq == null ? (side === 'from' ? Number.MAX_SAFE_INTEGER : -1) : Number(row.seq)
}

export function documentAtRevision(db: DatabaseSync, docId: string, rev: string): Doc | null {
  const row = db
    .prepare('SELECT json FROM revisions WHERE doc_id = ? AND rev = ? ORDER BY seq DESC LIMIT 1')
    .get(docId, rev)
  if (row) return parse(row.json)
  // A revision is a transaction id: the Studio's Review changes also asks for a document as of a
  // transaction that did not touch it (e.g. the published post at its draft's revision); answer
  // the document's state at that point, as Sanity does (fallback added by the Studio engineer, #4).
  const tx = db.prepare('SELECT seq FROM transactions WHERE id = ?').get(rev)
  if (tx?.seq == null) return null
  const at = db
    .prepare('SELECT json FROM revisions WHERE doc_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1')
    .get(docId, Number(tx.seq))
  return parse(at?.json)
}

export function documentAtTime(db: DatabaseSync, docId: string, iso: string): Doc | null {
  const row = db
    .prepare(
      `SELECT r.json FROM revisions r JOIN transactions t ON t.seq = r.seq
       WHERE r.doc_id = ? AND julianday(t.time) <= julianday(?) ORDER BY r.seq DESC LIMIT 1`,
    )
    .get(docId, iso)
  return parse(row?.json)
}

/** The current document, or its last state before it was deleted. */
export function lastRevision(db: DatabaseSync, docId: string): Doc | null {
  const row = db
    .prepare(
      'SELECT json FROM revisions WHERE doc_id = ? AND json IS NOT NULL ORDER BY seq DESC LIMIT 1',
    )
    .get(docId)
  return parse(row?.json)
}
