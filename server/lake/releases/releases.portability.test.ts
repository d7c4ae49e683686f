import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {importFile} from '../importer.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// Release documents and versions are content like any other: they survive export → import as
// they were, a scheduled release still scheduled (backup → restore: server/backup/releases.test.ts).
let t: LakeUnderTest
let dir: string
const ids = ['_.releases.rKeep', 'versions.rKeep.port-a', 'versions.rKeep.port-new']
const later = new Date(Date.now() + 86_400_000).toISOString()

beforeAll(async () => {
  t = await startLakeUnderTest()
  dir = mkdtempSync(join(tmpdir(), 'releases-portability-'))
  const owner = t.client({token: t.token, apiVersion: '2025-02-19'})
  await owner.create({_id: 'port-a', _type: 'post', title: 'Published'})
  await owner.releases.create({releaseId: 'rKeep', metadata: {title: 'Keep'}})
  await owner.createVersion({baseId: 'port-a', publishedId: 'port-a', releaseId: 'rKeep'})
  await owner.createVersion({
    document: {_id: 'versions.rKeep.port-new', _type: 'post', title: 'New'},
    publishedId: 'port-new',
    releaseId: 'rKeep',
  })
  await owner.releases.schedule({releaseId: 'rKeep', publishAt: later})
})
afterAll(async () => {
  await t.stop()
  rmSync(dir, {recursive: true, force: true})
})

it('export → import keeps releases and versions as they were', async () => {
  const res = await t.fetch('/v2021-06-07/data/export/production', {token: t.token})
  const text = await res.text()
  for (const id of ids) expect(text).toContain(`"_id":"${id}"`)
  const file = join(dir, 'export.ndjson')
  writeFileSync(file, text)
  const other = await startLakeUnderTest()
  try {
    await importFile(other.lake, file)
    for (const id of ids) expect(other.lake.getDocument(id)).toEqual(t.lake.getDocument(id))
    expect(other.lake.getDocument('_.releases.rKeep')).toMatchObject({
      state: 'scheduled',
      publishAt: later,
    })
  } finally {
    await other.stop()
  }
})
