import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {afterAll, expect, it} from 'vitest'
import {startLakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {importDocuments} from '../importer.ts'
import {Lake} from '../lake.ts'
import {textIndexVersion} from './textIndex.ts'

const dir = mkdtempSync(join(tmpdir(), 'text-index-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const searchQuery = '*[_type == "post" && [@, _id] match text::query($q)]._id | order(@)'

function indexState(dataDir: string): {version: number; seq: number; docs: number} {
  const db = new DatabaseSync(join(dataDir, 'lake.sqlite'), {readOnly: true})
  try {
    const state = db.prepare('SELECT version, seq FROM text_index_state').get()
    const docs = db.prepare('SELECT COUNT(*) AS n FROM text_index').get()
    return {version: Number(state?.version), seq: Number(state?.seq), docs: Number(docs?.n)}
  } finally {
    db.close()
  }
}

it('an import is searchable at once, replaced documents by their new words only', async () => {
  const dataDir = join(dir, 'import')
  const before = await startLakeUnderTest({dataDir, token: 'sk-import'})
  try {
    await before.owner.create({_id: 'replaced', _type: 'post', title: 'Lantern festival'})
  } finally {
    await before.stop()
  }
  // As npm run lake:import does, with the server stopped.
  const lake = new Lake({dataDir, projectId: 'test', dataset: 'production', token: 'sk-import'})
  try {
    importDocuments(lake, [
      {_id: 'replaced', _type: 'post', title: 'Paper boats'},
      {_id: 'imported', _type: 'post', title: 'Lantern light', body: 'boats'},
      {_id: 'drafts.imported', _type: 'post', title: 'Lantern secret'},
    ])
  } finally {
    lake.close()
  }
  const after = await startLakeUnderTest({dataDir, token: 'sk-import'})
  try {
    expect(await after.anon.fetch(searchQuery, {q: 'lantern'})).toEqual(['imported'])
    expect(await after.anon.fetch(searchQuery, {q: 'boats'})).toEqual(['imported', 'replaced'])
    expect(await after.anon.fetch(searchQuery, {q: 'secret'})).toEqual([])
    expect(await after.owner.fetch(searchQuery, {q: 'secret'}, {perspective: 'drafts'})).toEqual([
      'imported',
    ])
  } finally {
    await after.stop()
  }
  expect(indexState(dataDir)).toMatchObject({version: textIndexVersion, docs: 3})
})

it('an index of another version, or behind the documents, is rebuilt when the lake opens', async () => {
  const dataDir = join(dir, 'stale')
  const first = await startLakeUnderTest({dataDir, token: 'sk-stale'})
  try {
    await first.owner.create({_id: 'kept', _type: 'post', title: 'Quince jam'})
  } finally {
    await first.stop()
  }
  const {seq} = indexState(dataDir)
  // What an older build (no index, or an older one) leaves: empty, and marked as another version.
  const db = new DatabaseSync(join(dataDir, 'lake.sqlite'))
  db.exec('DELETE FROM text_index; UPDATE text_index_state SET version = 0')
  db.close()
  const second = await startLakeUnderTest({dataDir, token: 'sk-stale'})
  try {
    expect(await second.anon.fetch(searchQuery, {q: 'quince'})).toEqual(['kept'])
  } finally {
    await second.stop()
  }
  expect(indexState(dataDir)).toEqual({version: textIndexVersion, seq, docs: 1})
})
