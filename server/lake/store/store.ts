import {closeSync, existsSync, openSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync, type StatementSync} from 'node:sqlite'
import {storageError} from '../files/diskFull.ts'
import {ensurePrivateDir, privateFileMode, tightenMode} from '../../util/durableFile.ts'
import {
  currentDocumentsInOrder,
  parseLogEntries,
  parseStoredDoc,
  prepareRowStatements,
  writeRows,
  type RowStatements,
  type TransactionRow,
} from './storeRows.ts'
import type {CommittedTransaction, Doc, DocumentChange} from '../types.ts'
import {indexedWords, rebuildTextIndex, textIndexIsCurrent} from '../textQuery/textIndex.ts'
import {TextIndexWriter} from '../textQuery/textIndexWriter.ts'

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
  // Fewer pages per commit (each is a WAL frame to write and fsync): seq is assigned by the
  // store, so no AUTOINCREMENT bookkeeping; a transaction's revisions are found by
  // (doc_id, seq) from its log entry, so no index on seq; and a document's JSON is kept once,
  // in its newest revision, which `documents` points at. A document whose current JSON is not
  // that revision's fails the NOT NULL constraint, and the migration is refused, not guessed.
  `CREATE TABLE transactions_v3 (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     time TEXT NOT NULL,
     author TEXT NOT NULL,
     mutations TEXT NOT NULL
   );
   INSERT INTO transactions_v3 (seq, id, time, author, mutations)
     SELECT seq, id, time, author, mutations FROM transactions;
   DROP TABLE transactions;
   ALTER TABLE transactions_v3 RENAME TO transactions;
   DROP INDEX revisions_seq;
   CREATE TABLE documents_v3 (
     id TEXT PRIMARY KEY,
     seq INTEGER NOT NULL
   ) WITHOUT ROWID;
   INSERT INTO documents_v3 (id, seq)
     SELECT d.id, (SELECT MAX(r.seq) FROM revisions r WHERE r.doc_id = d.id AND r.json = d.json) FROM documents d;
   DROP TABLE documents;
   ALTER TABLE documents_v3 RENAME TO documents;`,
  // Sessions end (server/lake/auth.ts): times in epoch ms for cheap comparisons, the owner token
  // they were issued under (rotating LAKE_TOKEN revokes them), and when logout ended one. Rows
  // from before this step get owner '' and so end too: the Studio asks to log in once. They keep
  // their login time, so auth.ts still knows them as ended sessions, not guesses, for a while.
  `ALTER TABLE sessions ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE sessions ADD COLUMN used_ms INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT '';
   ALTER TABLE sessions ADD COLUMN ended_ms INTEGER;
   UPDATE sessions SET
     created_ms = COALESCE(CAST(unixepoch(created_at, 'subsec') * 1000 AS INTEGER), 0),
     used_ms = COALESCE(CAST(unixepoch(created_at, 'subsec') * 1000 AS INTEGER), 0);`,
  // The order of `*` (documentOrder.ts) survives a restart: each document's place, given when
  // a transaction creates it where none was and kept while it is replaced. Before this step a
  // restart read documents in id order. Existing documents get the order their history gives:
  // by the transaction that last created them (the first revision after their last deletion),
  // then by their place in its log entry. Temporary tables, so each log entry is parsed once.
  `ALTER TABLE documents ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
   CREATE TEMP TABLE created_in AS
     SELECT d.id AS id, (SELECT MIN(r.seq) FROM revisions r WHERE r.doc_id = d.id AND r.seq >
       COALESCE((SELECT MAX(x.seq) FROM revisions x WHERE x.doc_id = d.id AND x.json IS NULL), 0)
     ) AS seq FROM documents d;
   CREATE TEMP TABLE entry_index AS
     SELECT t.seq AS seq, e.value ->> 'id' AS id, CAST(e.key AS INTEGER) AS idx
     FROM transactions t, json_each(t.mutations) e
     WHERE t.seq IN (SELECT seq FROM created_in);
   CREATE INDEX temp.entry_index_key ON entry_index (seq, id);
   UPDATE documents SET position = placed.position FROM (
     SELECT c.id AS id, ROW_NUMBER() OVER (ORDER BY c.seq, e.idx, c.id) AS position
     FROM created_in c LEFT JOIN entry_index e ON e.seq = c.seq AND e.id = c.id
   ) AS placed WHERE placed.id = documents.id;
   DROP TABLE temp.created_in;
   DROP TABLE temp.entry_index;`,
]

/** The schema version a Store migrates a database to on open (backups record and check it). */
export const schemaVersion = migrations.length

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
  /** The place the next document created gets in `*` (documents.position); a replace keeps its. */
  private nextPosition = 1
  private statements: RowStatements
  private readonly selectRevision: StatementSync

  constructor(dataDir: string, file = 'lake.sqlite') {
    ensurePrivateDir(dataDir)
    const path = join(dataDir, file)
    // SQLite gives its -wal and -shm files the database file's permissions, so creating it 0600
    // first keeps all three owner-only whatever the umask; older ones are tightened here.
    if (!existsSync(path)) closeSync(openSync(path, 'a', privateFileMode))
    this.db = new DatabaseSync(path)
    // Foreign keys stay off while migrations rebuild tables that others reference.
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = OFF;')
    for (const suffix of ['', '-wal', '-shm']) tightenMode(`${path}${suffix}`, privateFileMode)
    this.migrate()
    this.db.exec('PRAGMA foreign_keys = ON;')
    this.selectRevision = this.db.prepare(
      'SELECT rev, json FROM revisions WHERE doc_id = ? AND seq = ?',
    )
    for (const row of this.db.prepare(currentDocumentsInOrder).iterate()) {
      const doc = parseStoredDoc(row.json)
      this.docs.set(doc._id, doc)
    }
    const last = this.db.prepare('SELECT MAX(seq) AS seq FROM transactions').get()
    this.seq = Number(last?.seq ?? 0)
    const placed = this.db.prepare('SELECT MAX(position) AS position FROM documents').get()
    this.nextPosition = Number(placed?.position ?? 0) + 1
    // A database from before the index, of another index version, or written without it: rebuilt.
    if (!textIndexIsCurrent(this.db, this.seq)) this.rebuildTextIndex()
    this.statements = prepareRowStatements(this.db, new TextIndexWriter(this.db))
  }

  /** Refills the text index from the documents (restore calls it; open does when it is not current). */
  rebuildTextIndex(): void {
    rebuildTextIndex(this.db, this.docs.values(), this.seq)
    this.statements = prepareRowStatements(this.db, new TextIndexWriter(this.db))
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
   * each with its own log entry, in order; all or none of them. Then updates memory. A full
   * disk throws the 507 `insufficientStorage` LakeError and changes nothing.
   */
  commitMany(txs: PreparedTransaction[]): CommittedTransaction[] {
    const rows = this.rows(txs)
    try {
      writeRows(this.db, this.statements, rows)
    } catch (error) {
      // SQLITE_FULL rolled the whole batch back (writeRows): a 507, and memory is untouched.
      throw storageError(error)
    }
    return this.applyCommitted(txs, rows)
  }

  /** Serializes transactions into log rows (each document's JSON once), numbered from the next position on. */
  private rows(txs: PreparedTransaction[]): TransactionRow[] {
    return txs.map((tx, i) => ({
      seq: this.seq + 1 + i,
      id: tx.id,
      time: tx.timestamp,
      author: tx.author,
      mutations: JSON.stringify(
        tx.changes.map((change) => ({id: change.id, mutations: change.mutations})),
      ),
      docs: tx.changes.map(({id, after}) => ({
        id,
        rev: after ? (after._rev ?? tx.id) : null,
        json: after ? JSON.stringify(after) : null,
        words: after ? indexedWords(after) : null,
        // Used only if the row is new (storeRows.ts); a place unused is a gap, harmless.
        position: this.nextPosition++,
      })),
    }))
  }

  /** Takes committed rows into memory: documents and position. */
  private applyCommitted(
    txs: PreparedTransaction[],
    rows: TransactionRow[],
  ): CommittedTransaction[] {
    const committed = txs.map((tx, i) => {
      // The Map's own order is `*`'s (documentOrder.ts): a new id is appended, a present one
      // replaced in place, and a row's position in SQLite follows the same rule.
      for (const {id, after} of tx.changes) {
        if (after) this.docs.set(id, after)
        else this.docs.delete(id)
      }
      return {
        seq: rows[i].seq,
        id: tx.id,
        timestamp: tx.timestamp,
        author: tx.author,
        changes: tx.changes,
        stored: rows[i].docs.map((doc) => doc.json),
      }
    })
    this.snapshotCache = null
    if (rows.length > 0) this.seq = rows[rows.length - 1].seq
    return committed
  }

  /** Transactions touching `docId` (newest last), for history; bounded by `limit`. */
  transactionsFor(
    docId: string,
    options: {limit?: number; afterSeq?: number} = {},
  ): StoredTransaction[] {
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
    const tx = this.db
      .prepare('SELECT seq, id, time, author, mutations FROM transactions WHERE seq = ?')
      .get(seq)
    if (!tx) return undefined
    const mutations = parseLogEntries(tx.mutations)
    // The log entry lists every document the transaction touched; each has a revision row.
    const byId = new Map(mutations.map(({id}) => [id, this.selectRevision.get(id, seq)]))
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
          after: r?.json == null ? null : parseStoredDoc(r.json),
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
    return row?.json == null ? null : parseStoredDoc(row.json)
  }

  /** Transactions after `seq`, oldest first: listeners resume from here. */
  transactionsSince(seq: number, limit = 1000): StoredTransaction[] {
    const rows = this.db
      .prepare('SELECT seq FROM transactions WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(seq, limit)
    return rows.map((row) => this.transactionAt(Number(row.seq))).filter((tx) => tx !== undefined)
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }
}
