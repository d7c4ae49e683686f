import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {describe, expect, it} from 'vitest'
import {Store} from './store.ts'
import type {Doc} from '../types.ts'
import {tempDirs} from '../../../test/support/tempDirs.ts'

// The durable store on its own: what is committed is what a reopened store holds.
const freshDir = tempDirs('scriptorium-store-')

const doc = (id: string, extra: Record<string, unknown> = {}): Doc => ({
  _id: id,
  _type: 'note',
  _rev: 'r',
  ...extra,
})
const tx = (id: string, changes: Array<{id: string; after: Doc | null}>) => ({
  id,
  timestamp: '2026-01-01T00:00:00Z',
  author: 'p-owner',
  changes: changes.map((c) => ({...c, before: null, mutations: []})),
})

describe('Store', () => {
  it('keeps commits across a reopen, with the transaction log and revisions', () => {
    const dir = freshDir()
    const store = new Store(dir)
    store.commit(
      tx('t1', [
        {id: 'a', after: doc('a', {v: 1})},
        {id: 'b', after: doc('b')},
      ]),
    )
    store.commit(
      tx('t2', [
        {id: 'a', after: doc('a', {v: 2})},
        {id: 'b', after: null},
      ]),
    )
    store.close()

    const reopened = new Store(dir)
    expect(reopened.revision).toBe(2)
    expect(reopened.get('a')).toMatchObject({v: 2})
    expect(reopened.has('b')).toBe(false)
    expect(reopened.transactionById('t1')?.documents.map((d) => d.id)).toEqual(['a', 'b'])
    expect(reopened.documentAt('a', 1)).toMatchObject({v: 1})
    expect(reopened.documentAt('b', 2)).toBeNull()
    expect(reopened.transactionsSince(1).map((t) => t.id)).toEqual(['t2'])
    expect(reopened.transactionsFor('a').map((t) => t.id)).toEqual(['t1', 't2'])
    reopened.close()
  })

  it('applies nothing, in memory or on disk, when SQLite refuses part of a commit', () => {
    const dir = freshDir()
    const store = new Store(dir)
    store.commit(tx('t1', [{id: 'a', after: doc('a', {v: 1})}]))
    // A reused transaction id violates the UNIQUE constraint after the first row was written.
    expect(() =>
      store.commit(
        tx('t1', [
          {id: 'a', after: doc('a', {v: 2})},
          {id: 'c', after: doc('c')},
        ]),
      ),
    ).toThrow()
    expect(store.get('a')).toMatchObject({v: 1})
    expect(store.has('c')).toBe(false)
    expect(store.revision).toBe(1)
    store.close()
    const reopened = new Store(dir)
    expect(reopened.get('a')).toMatchObject({v: 1})
    expect(reopened.has('c')).toBe(false)
    reopened.close()
  })

  it('shares one snapshot array until the next commit', () => {
    const store = new Store(freshDir())
    store.commit(tx('t1', [{id: 'a', after: doc('a')}]))
    const first = store.snapshot()
    expect(store.snapshot()).toBe(first)
    store.commit(tx('t2', [{id: 'b', after: doc('b')}]))
    expect(store.snapshot()).not.toBe(first)
    expect(store.snapshot().map((d) => d._id)).toEqual(['a', 'b'])
    store.close()
  })

  it('keeps `*` in the order its writes give across a reopen, also for a file from before positions', () => {
    const dir = freshDir()
    const store = new Store(dir)
    const ids = () => store.snapshot().map((d) => d._id)
    store.commit(
      tx(
        't1',
        ['d', 'c', 'b', 'a'].map((id) => ({id, after: doc(id)})),
      ),
    )
    store.commit(
      tx(
        't2',
        ['d', 'c', 'b', 'a'].map((id) => ({id, after: null})),
      ),
    )
    store.commit(
      tx(
        't3',
        ['b', 'a', 'c'].map((id) => ({id, after: doc(id)})),
      ),
    )
    store.commit(
      tx('t4', [
        {id: 'b', after: doc('b', {v: 2})},
        {id: 'a', after: null},
      ]),
    )
    store.commit(tx('t5', [{id: 'a', after: doc('a')}]))
    // Replaced in place (b), deleted (a), created again by a later transaction: at the end.
    expect(ids()).toEqual(['b', 'c', 'a'])
    store.close()
    const reopened = new Store(dir)
    expect(reopened.snapshot().map((d) => d._id)).toEqual(['b', 'c', 'a'])
    reopened.close()

    // As a file of schema 4 had it (no positions): the order is rebuilt from the history.
    const db = new DatabaseSync(join(dir, 'lake.sqlite'))
    db.exec('ALTER TABLE documents DROP COLUMN position; PRAGMA user_version = 4;')
    db.close()
    const migrated = new Store(dir)
    expect(migrated.snapshot().map((d) => d._id)).toEqual(['b', 'c', 'a'])
    migrated.commit(tx('t6', [{id: 'e', after: doc('e')}]))
    migrated.close()
    const last = new Store(dir)
    expect(last.snapshot().map((d) => d._id)).toEqual(['b', 'c', 'a', 'e'])
    last.close()
  })

  it('records its schema version and opens an up-to-date file without migrating again', () => {
    const dir = freshDir()
    new Store(dir).close()
    const store = new Store(dir)
    expect(
      Number(store.db.prepare('PRAGMA user_version').get()?.user_version),
    ).toBeGreaterThanOrEqual(2)
    expect(String(store.db.prepare('PRAGMA journal_mode').get()?.journal_mode)).toBe('wal')
    expect(Number(store.db.prepare('PRAGMA synchronous').get()?.synchronous)).toBe(2) // FULL
    store.close()
  })

  it('migrates a version-2 file (AUTOINCREMENT log, JSON in documents) without losing anything', () => {
    const dir = freshDir()
    const db = new DatabaseSync(join(dir, 'lake.sqlite'))
    // The schema and rows exactly as the version-2 store wrote them.
    db.exec(`CREATE TABLE documents (id TEXT PRIMARY KEY, type TEXT NOT NULL, rev TEXT NOT NULL, created_at TEXT NOT NULL,
               updated_at TEXT NOT NULL, json TEXT NOT NULL) WITHOUT ROWID;
             CREATE TABLE transactions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, time TEXT NOT NULL,
               author TEXT NOT NULL, mutations TEXT NOT NULL);
             CREATE TABLE revisions (doc_id TEXT NOT NULL, seq INTEGER NOT NULL REFERENCES transactions(seq), rev TEXT, json TEXT,
               PRIMARY KEY (doc_id, seq)) WITHOUT ROWID;
             CREATE INDEX revisions_seq ON revisions(seq);
             CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID;
             PRAGMA user_version = 2;`)
    const a1 = JSON.stringify(doc('a', {v: 1, _rev: 't1'}))
    const a2 = JSON.stringify(doc('a', {v: 2, _rev: 't2'}))
    const b1 = JSON.stringify(doc('b', {_rev: 't1'}))
    const c1 = JSON.stringify(doc('c', {_rev: 't1'}))
    const insertTx = db.prepare(
      'INSERT INTO transactions (id, time, author, mutations) VALUES (?, ?, ?, ?)',
    )
    const insertRev = db.prepare(
      'INSERT INTO revisions (doc_id, seq, rev, json) VALUES (?, ?, ?, ?)',
    )
    const insertDoc = db.prepare(
      "INSERT INTO documents (id, type, rev, created_at, updated_at, json) VALUES (?, 'note', ?, 't', 't', ?)",
    )
    insertTx.run(
      't1',
      '2026-01-01T00:00:00Z',
      'p-owner',
      JSON.stringify([
        {id: 'a', mutations: []},
        {id: 'b', mutations: []},
        {id: 'c', mutations: []},
      ]),
    )
    insertTx.run(
      't2',
      '2026-01-01T00:00:01Z',
      'p-owner',
      JSON.stringify([
        {id: 'a', mutations: []},
        {id: 'b', mutations: []},
      ]),
    )
    for (const [id, seq, rev, json] of [
      ['a', 1, 't1', a1],
      ['b', 1, 't1', b1],
      ['c', 1, 't1', c1],
      ['a', 2, 't2', a2],
      ['b', 2, null, null],
    ] as const) {
      insertRev.run(id, seq, rev, json)
    }
    insertDoc.run('a', 't2', a2)
    insertDoc.run('c', 't1', c1)
    db.prepare("INSERT INTO sessions VALUES ('h', 'p-owner', 't')").run()
    db.close()

    const store = new Store(dir)
    expect(store.revision).toBe(2)
    expect(store.snapshot().map((d) => [d._id, d.v ?? null])).toEqual([
      ['a', 2],
      ['c', null],
    ])
    expect(store.transactionById('t2')?.documents).toMatchObject([
      {id: 'a', rev: 't2', after: {v: 2}},
      {id: 'b', rev: null, after: null},
    ])
    expect(store.documentAt('b', 1)).toMatchObject({_id: 'b'})
    store.commit(tx('t3', [{id: 'd', after: doc('d')}]))
    expect(store.revision).toBe(3)
    expect(Number(store.db.prepare('SELECT COUNT(*) AS n FROM sessions').get()?.n)).toBe(1)
    store.close()
    const reopened = new Store(dir)
    expect(
      reopened
        .snapshot()
        .map((d) => d._id)
        .sort(),
    ).toEqual(['a', 'c', 'd'])
    expect(reopened.transactionsSince(2).map((t) => t.id)).toEqual(['t3'])
    reopened.close()
  })
})
