import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// Every mutation and patch kind through the real @sanity/client, checked by reading back.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
})
afterAll(() => t.stop())

describe('mutation kinds', () => {
  it('create stores the document with system fields and generates a missing _id', async () => {
    const doc = await t.owner.create({_id: 'm-create', _type: 'note', title: 'Made'})
    expect(doc).toMatchObject({
      _id: 'm-create',
      _type: 'note',
      title: 'Made',
      _rev: expect.any(String),
    })
    expect(doc._createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    expect(doc._updatedAt).toBe(doc._createdAt)
    const generated = await t.owner.create({_type: 'note', title: 'No id'})
    expect(generated._id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await t.owner.getDocument(generated._id)).toEqual(generated)
    const draft = await t.owner.create({_id: 'drafts.', _type: 'note'})
    expect(draft._id).toMatch(/^drafts\.[0-9a-f-]{36}$/)
  })

  it('createIfNotExists creates once and then leaves the document alone', async () => {
    const first = await t.owner.createIfNotExists({_id: 'm-cine', _type: 'note', title: 'First'})
    expect(first.title).toBe('First')
    const second = await t.owner.createIfNotExists({_id: 'm-cine', _type: 'note', title: 'Second'})
    expect(second).toEqual(first)
    expect((await t.owner.getDocument('m-cine'))?.title).toBe('First')
  })

  it('createOrReplace replaces the whole document and keeps _createdAt', async () => {
    const first = await t.owner.createOrReplace({
      _id: 'm-cor',
      _type: 'note',
      title: 'Old',
      extra: 1,
    })
    const second = await t.owner.createOrReplace({_id: 'm-cor', _type: 'note', title: 'New'})
    expect(second).not.toHaveProperty('extra')
    expect(second).toMatchObject({title: 'New', _createdAt: first._createdAt})
    expect(second._rev).not.toBe(first._rev)
  })

  it('delete by id and by query', async () => {
    await t.owner
      .transaction()
      .create({_id: 'del-1', _type: 'temp'})
      .create({_id: 'del-2', _type: 'temp'})
      .create({_id: 'del-3', _type: 'temp'})
      .commit()
    const byId = await t.owner.delete('del-1')
    expect(byId.results).toMatchObject([{id: 'del-1', operation: 'delete'}])
    const byQuery = await t.owner.delete({query: '*[_type == $t]', params: {t: 'temp'}})
    expect(byQuery.results.map((r) => r.id).sort()).toEqual(['del-2', 'del-3'])
    expect(await t.owner.fetch('count(*[_type == "temp"])')).toBe(0)
  })
})

describe('patches', () => {
  beforeAll(async () => {
    await t.owner.createOrReplace({
      _id: 'pt',
      _type: 'note',
      title: 'Hello world',
      count: 10,
      tags: ['a', 'b'],
      items: [
        {_key: 'k1', v: 1},
        {_key: 'k2', v: 2},
      ],
      gone: 'x',
    })
  })

  it('set, setIfMissing, unset, inc and dec', async () => {
    const doc = await t.owner
      .patch('pt')
      .set({'meta.author': 'Sana'})
      .setIfMissing({title: 'ignored', subtitle: 'added'})
      .unset(['gone'])
      .inc({count: 5})
      .dec({count: 2})
      .commit()
    expect(doc).toMatchObject({
      title: 'Hello world',
      subtitle: 'added',
      count: 13,
      meta: {author: 'Sana'},
    })
    expect(doc).not.toHaveProperty('gone')
  })

  it('insert before, after and replace in arrays', async () => {
    await t.owner.patch('pt').insert('before', 'tags[0]', ['first']).commit()
    await t.owner.patch('pt').insert('after', 'tags[-1]', ['last']).commit()
    const doc = await t.owner
      .patch('pt')
      .insert('replace', 'items[_key == "k1"]', [{_key: 'k9', v: 9}])
      .commit()
    expect(doc.tags).toEqual(['first', 'a', 'b', 'last'])
    expect(doc.items).toEqual([
      {_key: 'k9', v: 9},
      {_key: 'k2', v: 2},
    ])
  })

  it('diffMatchPatch edits a string in place', async () => {
    const doc = await t.owner
      .patch('pt')
      .diffMatchPatch({title: '@@ -1,5 +1,5 @@\n-Hello\n+Howdy\n'})
      .commit()
    expect(doc.title).toBe('Howdy world')
  })

  it('ifRevisionID applies when current and is a 409 when stale', async () => {
    const current = await t.owner.getDocument('pt')
    const rev = current?._rev ?? ''
    const next = await t.owner.patch('pt').ifRevisionId(rev).set({checked: true}).commit()
    expect(next.checked).toBe(true)
    const stale = t.owner.patch('pt').ifRevisionId(rev).set({checked: false}).commit()
    await expect(stale).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('unexpected revision'),
    })
    expect((await t.owner.getDocument('pt'))?.checked).toBe(true)
  })

  it('patch by query updates every match in one transaction', async () => {
    await t.owner
      .transaction()
      .create({_id: 'c1', _type: 'counter', n: 1})
      .create({_id: 'c2', _type: 'counter', n: 2})
      .commit()
    const res = await t.owner
      .patch({query: '*[_type == "counter"]'})
      .inc({n: 10})
      .commit({returnDocuments: false})
    expect(res.results.map((r) => r.id).sort()).toEqual(['c1', 'c2'])
    const docs = await t.owner.fetch('*[_type == "counter"] | order(_id) {n, _rev}')
    expect(docs.map((d: {n: number}) => d.n)).toEqual([11, 12])
    expect(docs.every((d: {_rev: string}) => d._rev === res.transactionId)).toBe(true)
  })

  it('a patch of a missing document is a 409 and a patch removing _type a 400', async () => {
    await expect(t.owner.patch('nope').set({a: 1}).commit()).rejects.toMatchObject({
      statusCode: 409,
    })
    await expect(t.owner.patch('pt').unset(['_type']).commit()).rejects.toMatchObject({
      statusCode: 400,
    })
    expect(await t.owner.getDocument('nope')).toBeUndefined()
    expect((await t.owner.getDocument('pt'))?._type).toBe('note')
  })
})
