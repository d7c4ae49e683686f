import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'

/**
 * Writes a lake as schema version 2 left it (store.ts's first two migration steps, which are
 * never edited once shipped), holding `doc`: what a backup made before step 3 contains.
 */
export function writeSchemaTwoLake(dataDir: string, doc: {_id: string; _type: string}): void {
  mkdirSync(dataDir, {recursive: true})
  const db = new DatabaseSync(join(dataDir, 'lake.sqlite'))
  const json = JSON.stringify({
    ...doc,
    _rev: 'tx1',
    _createdAt: '2024-01-01T00:00:00Z',
    _updatedAt: '2024-01-01T00:00:00Z',
  })
  db.exec(`
    CREATE TABLE documents (id TEXT PRIMARY KEY, type TEXT NOT NULL, rev TEXT NOT NULL,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, json TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE transactions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
      time TEXT NOT NULL, author TEXT NOT NULL, mutations TEXT NOT NULL);
    CREATE TABLE revisions (doc_id TEXT NOT NULL, seq INTEGER NOT NULL REFERENCES transactions(seq),
      rev TEXT, json TEXT, PRIMARY KEY (doc_id, seq)) WITHOUT ROWID;
    CREATE INDEX revisions_seq ON revisions(seq);
    CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL,
      created_at TEXT NOT NULL) WITHOUT ROWID;
    PRAGMA user_version = 2;`)
  db.prepare(
    'INSERT INTO transactions (seq, id, time, author, mutations) VALUES (1, ?, ?, ?, ?)',
  ).run(
    'tx1',
    '2024-01-01T00:00:00Z',
    'p-owner',
    JSON.stringify([{id: doc._id, mutations: [{create: doc}]}]),
  )
  db.prepare('INSERT INTO revisions (doc_id, seq, rev, json) VALUES (?, 1, ?, ?)').run(
    doc._id,
    'tx1',
    json,
  )
  db.prepare(
    'INSERT INTO documents (id, type, rev, created_at, updated_at, json) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(doc._id, doc._type, 'tx1', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', json)
  db.prepare("INSERT INTO sessions VALUES ('0000', 'p-owner', '2024-01-01T00:00:00Z')").run()
  db.close()
}
