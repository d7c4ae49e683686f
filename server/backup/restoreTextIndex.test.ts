import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {startLakeUnderTest} from '../../test/support/lakeUnderTest.ts'
import {writeBackup} from './backup.ts'
import {restoreBackup} from './restore.ts'

const dir = mkdtempSync(join(tmpdir(), 'restore-text-index-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const searchQuery = '*[_type == "post" && [@, _id] match text::query($q)]._id | order(@)'

it('a restore brings back exactly what the backup could find: the text index is rebuilt from its documents', async () => {
  const source = await startLakeUnderTest({dataDir: join(dir, 'source')})
  try {
    await source.owner
      .transaction()
      .create({_id: 'kept', _type: 'post', title: 'Heron at dawn'})
      .create({_id: 'changed', _type: 'post', title: 'Heron at dusk'})
      .commit({visibility: 'sync'})
    await writeBackup(source.dataDir, join(dir, 'lake.tar.gz'))
    // After the backup: one post gone from "heron", one new; the restore must not know of them.
    await source.owner.patch('changed').set({title: 'Egret at dusk'}).commit()
    await source.owner.create({_id: 'later', _type: 'post', title: 'Heron, later'})
    expect(await source.anon.fetch(searchQuery, {q: 'heron'})).toEqual(['kept', 'later'])
  } finally {
    await source.stop()
  }
  await restoreBackup(join(dir, 'lake.tar.gz'), join(dir, 'restored'), {lakeToken: 'sk-restored'})
  const restored = await startLakeUnderTest({dataDir: join(dir, 'restored'), token: 'sk-restored'})
  try {
    expect(await restored.anon.fetch(searchQuery, {q: 'heron'})).toEqual(['changed', 'kept'])
    expect(await restored.anon.fetch(searchQuery, {q: 'egret'})).toEqual([])
    expect(await restored.anon.fetch(searchQuery, {q: 'dusk'})).toEqual(['changed'])
  } finally {
    await restored.stop()
  }
})
