import type {DatabaseSync, StatementSync} from 'node:sqlite'

/**
 * Writes the text index's rows (textIndex.ts) inside the store's transactions. The index's rows are
 * numbered by this writer: it keeps each document's row number in memory, read from the index
 * when it is made, so a write is one FTS5 statement or two, and no table maps ids to rows (that
 * table and its id index were two more B-trees touched at a random place per written document:
 * about half the index's cost per commit, bench/lakeWrites.ts).
 *
 * The numbers a transaction assigns are staged until the caller says it committed, and dropped
 * if it rolled back, so memory never runs ahead of the file.
 */
export class TextIndexWriter {
  private readonly insertWords: StatementSync
  private readonly deleteWords: StatementSync
  private readonly setState: StatementSync
  /** Committed: each indexed document's row. */
  private readonly rows = new Map<string, number>()
  /** This transaction's changes to `rows` (null: the document's row was deleted). */
  private readonly staged = new Map<string, number | null>()
  private nextRow: number
  private committedNextRow: number

  constructor(db: DatabaseSync) {
    this.insertWords = db.prepare('INSERT INTO text_index (rowid, words, id) VALUES (?, ?, ?)')
    this.deleteWords = db.prepare('DELETE FROM text_index WHERE rowid = ?')
    this.setState = db.prepare('UPDATE text_index_state SET seq = ?')
    let last = 0
    for (const row of db.prepare('SELECT rowid AS row, id FROM text_index').iterate()) {
      const number = Number(row.row)
      this.rows.set(String(row.id), number)
      if (number > last) last = number
    }
    this.nextRow = last + 1
    this.committedNextRow = this.nextRow
  }

  /** Sets a document's words (null: it was deleted). Runs inside the caller's transaction. */
  write(id: string, words: string | null): void {
    const row = this.staged.has(id) ? this.staged.get(id) : this.rows.get(id)
    if (row !== undefined && row !== null) {
      this.deleteWords.run(row)
      if (words === null) this.staged.set(id, null)
      else this.insertWords.run(row, words, id)
      return
    }
    if (words === null) return
    const assigned = this.nextRow++
    this.insertWords.run(assigned, words, id)
    this.staged.set(id, assigned)
  }

  /** Records the index's position (the transaction log's `seq`), inside the transaction. */
  reached(seq: number): void {
    this.setState.run(seq)
  }

  /** The caller's transaction committed: its rows are the index's now. */
  committed(): void {
    for (const [id, row] of this.staged) {
      if (row === null) this.rows.delete(id)
      else this.rows.set(id, row)
    }
    this.staged.clear()
    this.committedNextRow = this.nextRow
  }

  /** The caller's transaction rolled back: nothing it staged happened. */
  rolledBack(): void {
    this.staged.clear()
    this.nextRow = this.committedNextRow
  }
}
