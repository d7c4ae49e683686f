import type {DatabaseSync} from 'node:sqlite'
import {foldWords, type TextClause} from '../../../shared/textQuerySyntax.ts'
import {isRecord} from '../../util/isRecord.ts'
import type {Doc} from '../types.ts'
import {TextIndexWriter} from './textIndexWriter.ts'

/**
 * The text index (docs/search.md): an SQLite FTS5 table holding, per stored document (drafts and
 * versions too), the set of its folded words. It only narrows which documents `text::query()`
 * checks; the check itself is the exact in-memory one (rewriteTextQuery.ts), so the index may
 * hold more words than a search reads but never fewer.
 *
 * It is written in the same SQLite transaction as every document write (storeRows.ts
 * `writeRows`), and rebuilt from the documents when its version or position is not the lake's
 * (store.ts, on open and on restore). Not a migration: it is derived data, dropped and rebuilt
 * at will, so backups of any schema version stay restorable.
 */
export const textIndexVersion = 2

/**
 * `ascii` with `'` as a token character: every folded word (letters, digits, inner apostrophes;
 * non-ASCII bytes are token characters to it) is exactly one token, compared byte for byte,
 * so a word or prefix the exact check accepts is always found here. The document's id is an
 * UNINDEXED column, so a lookup answers ids; rows are numbered by textIndexWriter.ts.
 */
const createSql = `
  CREATE VIRTUAL TABLE text_index USING fts5(
    words, id UNINDEXED, tokenize = "ascii tokenchars ''''");
  CREATE TABLE text_index_state (version INTEGER NOT NULL, seq INTEGER NOT NULL);`

// `text_index_docs` mapped ids to rows in version 1.
const dropSql = `
  DROP TABLE IF EXISTS text_index;
  DROP TABLE IF EXISTS text_index_docs;
  DROP TABLE IF EXISTS text_index_state;`

/**
 * Adds the folded words of every string in `value` at any depth (system fields included) and of
 * each block's joined spans to `words`. A plain recursion: the commit path runs it for every
 * written document, and a generator's `yield*` per level cost a quarter more (28 against 36 µs
 * for a 1.5 KB post). A string already folded for this document (`folded`) adds nothing new and
 * is skipped: a one-span block's text is its joined text, and `_type`s, styles and marks repeat
 * (14 against 23 µs for the same post, bench/lakeWrites.ts).
 */
function addWords(value: unknown, words: Set<string>, folded: Set<string>, depth: number): void {
  if (depth > 64) return
  if (typeof value === 'string') {
    if (folded.has(value)) return
    folded.add(value)
    for (const word of foldWords(value)) words.add(word)
  } else if (Array.isArray(value)) {
    for (const item of value) addWords(item, words, folded, depth + 1)
  } else if (isRecord(value)) {
    // A phrase may run across spans (rewriteTextQuery.ts reads a block as one text).
    if (value._type === 'block' && Array.isArray(value.children))
      addWords(
        value.children
          .map((span) => (isRecord(span) && typeof span.text === 'string' ? span.text : ''))
          .join(''),
        words,
        folded,
        depth,
      )
    for (const key in value) addWords(value[key], words, folded, depth + 1)
  }
}

/** The document's distinct folded words, space-separated: what the index holds for it. */
export function indexedWords(doc: Doc): string {
  const words = new Set<string>()
  addWords(doc, words, new Set(), 0)
  return [...words].join(' ')
}

/** Whether the index exists, is of this version and reflects transaction `seq`. */
export function textIndexIsCurrent(db: DatabaseSync, seq: number): boolean {
  const table = db
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'text_index_state'")
    .get()
  if (!table) return false
  const state = db.prepare('SELECT version, seq FROM text_index_state').get()
  return Number(state?.version) === textIndexVersion && Number(state?.seq) === seq
}

/** Drops and refills the index from `docs` (the lake at `seq`), in one transaction. */
export function rebuildTextIndex(db: DatabaseSync, docs: Iterable<Doc>, seq: number): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    db.exec(dropSql)
    db.exec(createSql)
    db.prepare('INSERT INTO text_index_state (version, seq) VALUES (?, ?)').run(
      textIndexVersion,
      seq,
    )
    const writer = new TextIndexWriter(db)
    for (const doc of docs) writer.write(doc._id, indexedWords(doc))
    db.exec('COMMIT')
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
}

/** At most this many words of a query are looked up in the index. */
const maxIndexTerms = 16

/**
 * The FTS5 query for the documents that can satisfy `clauses`: each word of each positive clause
 * (the last one of a `word*` clause as a prefix), all required. Phrases and negations are left to
 * the exact check. Undefined when no clause is positive (such a query matches nothing). Only the
 * first `maxIndexTerms` words are looked up.
 */
export function indexQuery(clauses: TextClause[]): string | undefined {
  const terms: string[] = []
  for (const clause of clauses) {
    if (clause.negated) continue
    clause.words.forEach((word, i) => {
      const quoted = `"${word.replaceAll('"', '""')}"`
      terms.push(clause.prefix && i === clause.words.length - 1 ? `${quoted} *` : quoted)
    })
  }
  // Fewer required terms only widen the candidates (the exact check still decides); a phrase of
  // thousands of words must not become an FTS5 expression as deep.
  return terms.length === 0 ? undefined : terms.slice(0, maxIndexTerms).join(' AND ')
}
