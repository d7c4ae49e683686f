import {DatabaseSync, type StatementSync} from 'node:sqlite'
import type {TextClause} from '../../../shared/textQuerySyntax.ts'
import {parseLogEntries} from '../store/storeRows.ts'
import {indexQuery, textIndexIsCurrent} from './textIndex.ts'

/** Which stored documents may satisfy a `text::query()`; a superset, checked exactly after. */
export interface TextCandidates {
  /**
   * Raw stored ids (drafts and versions included), or undefined when the index cannot answer or
   * finds more than `limit` (then checking every document is as cheap as reading the ids).
   */
  candidates(clauses: TextClause[], limit: number): Set<string> | undefined
}

/**
 * A query worker's read-only view of the text index (textIndex.ts). The worker's replica is at
 * log position `replicaSeq()`; the database may already be further on (a commit the worker has
 * not yet applied). So each lookup reads, in one read transaction, the index's hits and the ids
 * written after the replica's position: those documents are checked too, in their replica state,
 * so the candidates never miss a document the replica would match.
 */
export class TextIndexReader implements TextCandidates {
  private readonly db: DatabaseSync
  private readonly lookup: StatementSync
  private readonly newest: StatementSync
  private readonly since: StatementSync
  private readonly replicaSeq: () => number

  constructor(database: string, replicaSeq: () => number) {
    this.replicaSeq = replicaSeq
    this.db = new DatabaseSync(database, {readOnly: true})
    this.lookup = this.db.prepare('SELECT id FROM text_index WHERE text_index MATCH ? LIMIT ?')
    this.newest = this.db.prepare('SELECT MAX(seq) AS seq FROM transactions')
    this.since = this.db.prepare('SELECT mutations FROM transactions WHERE seq > ? ORDER BY seq')
  }

  candidates(clauses: TextClause[], limit: number): Set<string> | undefined {
    const query = indexQuery(clauses)
    if (query === undefined) return new Set()
    try {
      return this.lookUp(query, limit)
    } catch (error) {
      // The index is an accelerator: whatever SQLite refuses, the search checks every document.
      console.error('[lake] text index lookup failed; this search scans', error)
      return undefined
    }
  }

  private lookUp(query: string, limit: number): Set<string> | undefined {
    const replica = this.replicaSeq()
    this.db.exec('BEGIN')
    try {
      const seq = Number(this.newest.get()?.seq ?? 0)
      // Behind the replica (a restore swapped the file) or not current: scan instead.
      if (seq < replica || !textIndexIsCurrent(this.db, seq)) return undefined
      const ids = new Set<string>()
      for (const row of this.lookup.iterate(query, limit + 1)) ids.add(String(row.id))
      if (ids.size > limit) return undefined
      if (seq > replica)
        for (const row of this.since.iterate(replica))
          for (const entry of parseLogEntries(row.mutations)) ids.add(entry.id)
      return ids
    } finally {
      this.db.exec('COMMIT')
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }
}
