import {DatabaseSync} from 'node:sqlite'
import {expect, it} from 'vitest'
import {rebuildTextIndex} from './textIndex.ts'
import {TextIndexWriter} from './textIndexWriter.ts'

function indexWith(): DatabaseSync {
  const db = new DatabaseSync(':memory:')
  rebuildTextIndex(db, [], 0)
  return db
}

const found = (db: DatabaseSync, word: string) =>
  db
    .prepare('SELECT id FROM text_index WHERE text_index MATCH ? ORDER BY id')
    .all(word)
    .map((row) => String(row.id))

function inTransaction(
  db: DatabaseSync,
  writer: TextIndexWriter,
  write: () => void,
  commit = true,
) {
  db.exec('BEGIN IMMEDIATE')
  write()
  if (commit) {
    db.exec('COMMIT')
    writer.committed()
  } else {
    db.exec('ROLLBACK')
    writer.rolledBack()
  }
}

it('a rolled-back transaction leaves the writer as the file is: later writes replace, never duplicate', () => {
  const db = indexWith()
  const writer = new TextIndexWriter(db)
  inTransaction(db, writer, () => writer.write('a', 'apple pie'))
  inTransaction(
    db,
    writer,
    () => {
      writer.write('b', 'banana')
      writer.write('a', null)
    },
    false,
  )
  inTransaction(db, writer, () => {
    writer.write('a', 'apricot')
    writer.write('c', 'cherry')
  })
  expect(found(db, 'apple')).toEqual([])
  expect(found(db, 'apricot')).toEqual(['a'])
  expect(found(db, 'banana')).toEqual([])
  expect(found(db, 'cherry')).toEqual(['c'])
  expect(Number(db.prepare('SELECT COUNT(*) AS n FROM text_index').get()?.n)).toBe(2)
})

it('a writer made over an existing index finds its rows: a document written twice in one transaction, then deleted', () => {
  const db = indexWith()
  const first = new TextIndexWriter(db)
  inTransaction(db, first, () => {
    first.write('a', 'quince')
    first.write('b', 'medlar')
  })
  const second = new TextIndexWriter(db)
  inTransaction(db, second, () => {
    second.write('a', 'rowan')
    second.write('a', 'sloe')
    second.write('b', null)
    second.write('c', 'quince')
  })
  expect(found(db, 'quince')).toEqual(['c'])
  expect(found(db, 'rowan')).toEqual([])
  expect(found(db, 'sloe')).toEqual(['a'])
  expect(found(db, 'medlar')).toEqual([])
  const rows = db.prepare('SELECT rowid AS row FROM text_index').all()
  expect(new Set(rows.map((row) => Number(row.row))).size).toBe(rows.length)
})
