import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync, type StatementSync} from 'node:sqlite'
import type {CommittedTransaction, Doc, DocumentChange} from './types.ts'

/**
 * Versioned schema migrations, applied in order and recorded in `PRAGMA user_version`.
 * Append new steps; never edit a shipped one.
 */
const migrations: string[] = [
  `CREATE TABLE documents (
     id TEXT PRIMARY KEY,
     type TEXT NOT NULL,
     rev TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     json TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE transactions (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     time TEXT NOT NULL,
     author TEXT NOT NULL,
     mutations TEXT NOT NULL
   );
   CREATE TABLE revisions (
     doc_id TEXT NOT NULL,
     seq INTEGER NOT NULL REFERENCES transactions(seq),
     rev TEXT,
     json TEXT,
     PRIMARY KEY (doc_id, seq)
   ) WITHOUT ROWID;
   CREATE INDEX revisions_seq ON revisions(seq);`,
  `CREATE TABLE sessions (
     token_hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     created_at TEXT NOT NULL
   ) WITHOUT ROWID;`,
]

/** A transaction ready to be written: its changes were computed by a TransactionBuilder. */
export interface PreparedTransaction {
  id: string
  timestamp: string
  author: string
  changes: DocumentChange[]
}

export interface StoredTransaction {
  seq: number
  id: string
  timestamp: string
  author: string
  /** Per document: the mutations applied and the document after (null when deleted). */
  documents: Array<{id: string; rev: string | null; after: Doc | null; mutations: unknown[]}>
}

/**
 * The lake's durable state: every document in memory for GROQ evaluation, and in SQLite
 * (WAL, synchronous=FULL) so that a commit acknowledged to a client survives `kill -9`.
 */
export class Store {
  readonly db: DatabaseSync
  private readonly docs = new Map<string, Doc>()
  private snapshotCache: Doc[] | null = null
  private seq = 0
  private readonly upsertDoc: StatementSync
  private readonly deleteDoc: StatementSync
  private readonly insertTx: StatementSync
  private readonly insertRevision: StatementSync

  constructor(dataDir: string, file = 'lake.sqlite') {
    mkdirSync(dataDir, {recursive: true})
    this.db = new DatabaseSync(join(dataDir, file))
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;')
    this.migrate()
    this.upsertDoc = this.db.prepare(
      `INSERT INTO documents (id, type, rev, created_at, updated_at, json) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET type = excluded.type, rev = excluded.rev,
         created_at = excluded.created_at, updated_at = excluded.updated_at, json = excluded.json`,
    )
    this.deleteDoc = this.db.prepare('DELETE FROM documents WHERE id = ?')
    this.insertTx = this.db.prepare(
      'INSERT INTO transactions (id, time, author, mutations) VALUES (?, ?, ?, ?) RETURNING seq',
    )
    this.insertRevision = this.db.prepare(
      'INSERT INTO revisions (doc_id, seq, rev, json) VALUES (?, ?, ?, ?)',
    )
    for (const row of this.db.prepare('SELECT json FROM documents').iterate()) {
      const doc = JSON.parse(String(row.json)) as Doc
      this.docs.set(doc._id, doc)
    }
    const last = this.db.prepare('SELECT MAX(seq) AS seq FROM transactions').get()
    this.seq = Number(last?.seq ?? 0)
  }

  private migrate(): void {
    const row = this.db.prepare('PRAGMA user_version').get()
    const version = Number(row?.user_version ?? 0)
    for (let i = version; i < migrations.length; i++) {
      this.db.exec('BEGIN')
      try {
        this.db.exec(migrations[i])
        this.db.exec(`PRAGMA user_version = ${i + 1}`)
        this.db.exec('COMMIT')
      } catch (error) {
        this.db.exec('ROLLBACK')
        throw error
      }
    }
  }

  /** Position of the newest committed transaction; 0 for an empty lake. */
  get revision(): number {
    return this.seq
  }

  get size(): number {
    return this.docs.size
  }

  get(id: string): Doc | undefined {
    return this.docs.get(id)
  }

  has(id: string): boolean {
    return this.docs.has(id)
  }

  /** Every document, as one array shared until the next commit (do not mutate). */
  snapshot(): Doc[] {
    this.snapshotCache ??= [...this.docs.values()]
    return this.snapshotCache
  }

  /**
   * Writes one transaction atomically and durably, then updates memory.
   * Throws (and changes nothing) if SQLite refuses any part of it.
   */
  commit(tx: PreparedTransaction): CommittedTransaction {
    const [committed] = this.commitMany([tx])
    return committed
  }

  /**
   * Writes several transactions in one SQLite transaction (group commit: one fsync for all),
   * each with its own log entry, in order; all or none of them. Then updates memory.
   */
  commitMany(txs: PreparedTransaction[]): CommittedTransaction[] {
    const seqs: number[] = []
    this.db.exec('BEGIN IMMEDIATE')
    try {
      for (const tx of txs) {
        const mutations = tx.changes.map((change) => ({id: change.id, mutations: change.mutations}))
        const row = this.insertTx.get(tx.id, tx.timestamp, tx.author, JSON.stringify(mutations))
        const seq = Number(row?.seq)
        seqs.push(seq)
        for (const {id, after} of tx.changes) {
          if (after) {
            const json = JSON.stringify(after)
            this.upsertDoc.run(id, after._type, after._rev ?? tx.id, after._createdAt ?? tx.timestamp, after._updatedAt ?? tx.timestamp, json)
            this.insertRevision.run(id, seq, after._rev ?? tx.id, json)
          } else {
            this.deleteDoc.run(id)
            this.insertRevision.run(id, seq, null, null)
          }
        }
      }
      this.db.exec('COMMIT')
    } catch (error) {
      this.db.exec('ROLLBACK')
      throw error
    }
    const committed = txs.map((tx, i) => {
      for (const {id, after} of tx.changes) {
        if (after) this.docs.set(id, after)
        else this.docs.delete(id)
      }
      return {seq: seqs[i], id: tx.id, timestamp: tx.timestamp, author: tx.author, changes: tx.changes}
    })
    this.snapshotCache = null
    if (seqs.length > 0) this.seq = seqs[seqs.length - 1]
    return committed
  }

  /** Transactions touching `docId` (newest last), for history; bounded by `limit`. */
  transactionsFor(docId: string, options: {limit?: number; afterSeq?: number} = {}): StoredTransaction[] {
    const rows = this.db
      .prepare(
        `SELECT t.seq FROM revisions r JOIN transactions t ON t.seq = r.seq
         WHERE r.doc_id = ? AND t.seq > ? ORDER BY t.seq ASC LIMIT ?`,
      )
      .all(docId, options.afterSeq ?? 0, options.limit ?? 1000)
    return rows.map((row) => this.transactionAt(Number(row.seq))).filter((tx) => tx !== undefined)
  }

  transactionById(id: string): StoredTransaction | undefined {
    const row = this.db.prepare('SELECT seq FROM transactions WHERE id = ?').get(id)
    return row ? this.transactionAt(Number(row.seq)) : undefined
  }

  transactionAt(seq: number): StoredTransaction | undefined {
    const tx = this.db.prepare('SELECT seq, id, time, author, mutations FROM transactions WHERE seq = ?').get(seq)
    if (!tx) return undefined
    const mutations = JSON.parse(String(tx.mutations)) as Array<{id: string; mutations: unknown[]}>
    const revisions = this.db.prepare('SELECT doc_id, rev, json FROM revisions WHERE seq = ?').all(seq)
    const byId = new Map(revisions.map((r) => [String(r.doc_id), r]))
    return {
      seq: Number(tx.seq),
      id: String(tx.id),
      timestamp: String(tx.time),
      author: String(tx.author),
      documents: mutations.map(({id, mutations: muts}) => {
        const r = byId.get(id)
        return {
          id,
          rev: r?.rev == null ? null : String(r.rev),
          after: r?.json == null ? null : (JSON.parse(String(r.json)) as Doc),
          mutations: muts,
        }
      }),
    }
  }

  /** The document as it was right after transaction `seq` (or before it, with `before`). */
  documentAt(docId: string, seq: number): Doc | null {
    const row = this.db
      .prepare('SELECT json FROM revisions WHERE doc_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1')
      .get(docId, seq)
    return row?.json == null ? null : (JSON.parse(String(row.json)) as Doc)
  }

  /** Transactions after `seq`, oldest first: listeners resume from here. */
  transactionsSince(seq: number, limit = 1000): StoredTransaction[] {
    const rows = this.db.prepare('SELECT seq FROM transactions WHERE seq > ? ORDER BY seq LIMIT ?').all(seq, limit)
    return rows.map((row) => this.transactionAt(Number(row.seq))).filter((tx) => tx !== undefined)
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }
}
