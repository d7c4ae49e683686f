import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {Store} from './store.ts'
import type {Doc} from './types.ts'

// The durable store on its own: what is committed is what a reopened store holds.
const dirs: string[] = []
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-store-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

const doc = (id: string, extra: Record<string, unknown> = {}): Doc => ({_id: id, _type: 'note', _rev: 'r', ...extra})
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
    store.commit(tx('t1', [{id: 'a', after: doc('a', {v: 1})}, {id: 'b', after: doc('b')}]))
    store.commit(tx('t2', [{id: 'a', after: doc('a', {v: 2})}, {id: 'b', after: null}]))
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
    expect(() => store.commit(tx('t1', [{id: 'a', after: doc('a', {v: 2})}, {id: 'c', after: doc('c')}]))).toThrow()
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

  it('records its schema version and opens an up-to-date file without migrating again', () => {
    const dir = freshDir()
    new Store(dir).close()
    const store = new Store(dir)
    expect(Number(store.db.prepare('PRAGMA user_version').get()?.user_version)).toBeGreaterThanOrEqual(2)
    expect(String(store.db.prepare('PRAGMA journal_mode').get()?.journal_mode)).toBe('wal')
    expect(Number(store.db.prepare('PRAGMA synchronous').get()?.synchronous)).toBe(2) // FULL
    store.close()
  })
})
