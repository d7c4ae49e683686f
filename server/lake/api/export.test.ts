import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {importFile} from '../importer.ts'
import {Lake} from '../lake.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// GET /data/export and the importer behind `npm run lake:import`.
let t: LakeUnderTest
let dir: string
const exportPath = '/v2021-06-07/data/export/production'

beforeAll(async () => {
  t = await startLakeUnderTest()
  dir = mkdtempSync(join(tmpdir(), 'export-'))
  await t.owner
    .transaction()
    .create({
      _id: 'b-post',
      _type: 'post',
      title: 'Ünïcode — 🏍 on the Khardung La',
      body: [{_key: 'k', _type: 'block', children: []}],
    })
    .create({_id: 'a-post', _type: 'post', title: 'First by id'})
    .create({_id: 'drafts.a-post', _type: 'post', title: 'A draft'})
    .create({_id: 'author-1', _type: 'author', name: 'Writer'})
    .commit()
})
afterAll(async () => {
  await t.stop()
  rmSync(dir, {recursive: true, force: true})
})

async function exported(query = ''): Promise<string> {
  const res = await t.fetch(exportPath + query, {token: t.token})
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/ndjson/)
  return res.text()
}

describe('export', () => {
  it('streams every document, drafts included, one JSON document a line sorted by _id', async () => {
    const text = await exported()
    const docs = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(docs.map((d) => d._id)).toEqual(['a-post', 'author-1', 'b-post', 'drafts.a-post'])
    expect(docs[2]).toEqual(await t.owner.getDocument('b-post'))
    expect(text.endsWith('\n')).toBe(true)
  })

  it('filters by types', async () => {
    const text = await exported('?types=author')
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)._id),
    ).toEqual(['author-1'])
  })

  it('needs a token', async () => {
    const res = await t.fetch(exportPath)
    expect(res.status).toBe(401)
    expect((await res.json()).error).toMatchObject({type: 'httpUnauthorized'})
    expect((await t.fetch('/v2021-06-07/data/export/other', {token: t.token})).status).toBe(404)
  })

  it('round-trips byte for byte: export → import into a fresh lake → export', async () => {
    const first = await exported()
    const file = join(dir, 'round.ndjson')
    writeFileSync(file, first)
    const other = await startLakeUnderTest()
    try {
      await importFile(other.lake, file)
      const res = await other.fetch(exportPath, {token: other.token})
      expect(await res.text()).toBe(first)
    } finally {
      await other.stop()
    }
  })
})

describe('import', () => {
  let lake: Lake
  beforeAll(() => {
    lake = new Lake({
      dataDir: join(dir, 'lake'),
      projectId: 'scriptorium',
      dataset: 'production',
      token: 'x',
    })
  })
  afterAll(() => lake.close())

  it('refuses existing ids unless asked to replace or skip, and a bad line imports nothing', async () => {
    const file = join(dir, 'in.ndjson')
    writeFileSync(
      file,
      '{"_id":"p1","_type":"post","title":"one"}\n\n{"_id":"p2","_type":"post"}\n',
    )
    expect(await importFile(lake, file)).toMatchObject({documents: 2, skipped: 0})
    const revision = lake.revision
    await expect(importFile(lake, file)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('--replace'),
    })
    writeFileSync(file, '{"_id":"p1","_type":"post","title":"uno"}\n{"_id":"p3","_type":"post"}\n')
    expect(await importFile(lake, file, {mode: 'missing'})).toMatchObject({
      documents: 2,
      skipped: 1,
    })
    expect(lake.getDocument('p1')?.title).toBe('one')
    await importFile(lake, file, {mode: 'replace'})
    expect(lake.getDocument('p1')?.title).toBe('uno')

    const after = lake.revision
    expect(after).toBeGreaterThan(revision)
    writeFileSync(file, '{"_id":"p9","_type":"post"}\n{"_id":"p10"\n')
    await expect(importFile(lake, file, {mode: 'replace'})).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Line 2'),
    })
    writeFileSync(file, '{"_id":"p9","_type":"post"}\n{"_id":"p9","_type":"post"}\n')
    await expect(importFile(lake, file, {mode: 'replace'})).rejects.toMatchObject({
      message: expect.stringContaining('more than once'),
    })
    writeFileSync(file, '{"_id":"p9","_type":"post"}\n["not a document"]\n')
    await expect(importFile(lake, file, {mode: 'replace'})).rejects.toMatchObject({
      message: expect.stringContaining('Line 2 is not a document'),
    })
    expect(lake.revision).toBe(after)
    expect(lake.getDocument('p9')).toBeUndefined()
  })

  it('reports progress every 1000 documents', async () => {
    const file = join(dir, 'many.ndjson')
    writeFileSync(
      file,
      Array.from({length: 2500}, (_, i) =>
        JSON.stringify({_id: `m${i}`, _type: 'post', n: i}),
      ).join('\n'),
    )
    const progress: number[] = []
    const result = await importFile(lake, file, {onProgress: (done) => progress.push(done)})
    expect(progress).toEqual([1000, 2000, 2500])
    expect(result.transactions).toBe(5)
    expect(lake.getDocument('m2499')).toMatchObject({n: 2499})
  })
})
