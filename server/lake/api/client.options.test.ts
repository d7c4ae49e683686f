import {ClientError} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// Mutate options, system fields, atomicity, conflicts and access through the real client.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
})
afterAll(() => t.stop())

describe('mutate options', () => {
  it('returnDocuments: false answers transaction id, results and ids', async () => {
    const res = await t.owner.mutate(
      [{create: {_id: 'o-1', _type: 'x'}}, {create: {_id: 'o-2', _type: 'x'}}],
      {returnDocuments: false},
    )
    expect(res).toMatchObject({
      transactionId: expect.any(String),
      documentIds: ['o-1', 'o-2'],
      results: [
        {id: 'o-1', operation: 'create'},
        {id: 'o-2', operation: 'create'},
      ],
    })
  })

  it('returnDocuments returns the stored documents', async () => {
    const docs = await t.owner.mutate([{createOrReplace: {_id: 'o-3', _type: 'x', a: 1}}], {
      returnDocuments: true,
      returnFirst: false,
    })
    expect(docs).toEqual([await t.owner.getDocument('o-3')])
  })

  it("transactionId becomes every changed document's _rev and cannot be reused", async () => {
    const res = await t.owner
      .transaction()
      .create({_id: 'o-4', _type: 'x'})
      .create({_id: 'o-5', _type: 'x'})
      .commit({transactionId: 'tx-chosen-by-client'})
    expect(res.transactionId).toBe('tx-chosen-by-client')
    expect(await t.owner.fetch('*[_id in ["o-4", "o-5"]]._rev')).toEqual([
      'tx-chosen-by-client',
      'tx-chosen-by-client',
    ])
    // client.create() drops a transactionId option; mutate() sends it.
    await expect(
      t.owner.mutate([{create: {_id: 'o-6', _type: 'x'}}], {transactionId: 'tx-chosen-by-client'}),
    ).rejects.toMatchObject({statusCode: 409})
    expect(await t.owner.getDocument('o-6')).toBeUndefined()
  })

  it.each(['sync', 'async', 'deferred'] as const)(
    'visibility %s commits durably before answering',
    async (visibility) => {
      const doc = await t.owner.create({_id: `o-vis-${visibility}`, _type: 'x'}, {visibility})
      expect(await t.anon.fetch('*[_id == $id][0]._rev', {id: doc._id})).toBe(doc._rev)
    },
  )

  it('an unknown visibility is a 400', async () => {
    const res = await t.fetch('/v2023-07-29/data/mutate/production?visibility=eventually', {
      method: 'POST',
      token: t.token,
      body: JSON.stringify({mutations: [{create: {_id: 'o-vis-bad', _type: 'x'}}]}),
    })
    expect(res.status).toBe(400)
    expect(await t.owner.getDocument('o-vis-bad')).toBeUndefined()
  })

  it('dryRun answers what would happen and stores nothing', async () => {
    const doc = await t.owner.create({_id: 'o-dry', _type: 'x', title: 'Dry'}, {dryRun: true})
    expect(doc).toMatchObject({_id: 'o-dry', title: 'Dry', _rev: expect.any(String)})
    expect(await t.owner.getDocument('o-dry')).toBeUndefined()
  })

  it('autoGenerateArrayKeys adds _key to objects in arrays, at any depth', async () => {
    const doc = await t.owner.create(
      {_id: 'o-keys', _type: 'x', list: [{a: 1}, {_key: 'mine', b: [{c: 1}]}], plain: ['s', 1]},
      {autoGenerateArrayKeys: true},
    )
    expect(doc.list[0]._key).toMatch(/^\w+$/)
    expect(doc.list[1]._key).toBe('mine')
    expect(doc.list[1].b?.[0]).toMatchObject({_key: expect.any(String), c: 1})
    expect(doc.plain).toEqual(['s', 1])
  })
})

describe('system fields', () => {
  it('_rev is the transaction id, _createdAt stays, _updatedAt follows the last change', async () => {
    const created = await t.owner.create({_id: 's-1', _type: 'x', n: 0}, {returnDocuments: true})
    const patched = await t.owner.mutate([{patch: {id: 's-1', inc: {n: 1}}}], {
      returnDocuments: false,
    })
    const doc = await t.owner.getDocument('s-1')
    expect(doc?._rev).toBe(patched.transactionId)
    expect(doc?._createdAt).toBe(created._createdAt)
    expect(Date.parse(doc?._updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(created._updatedAt))
  })
})

describe('atomicity and conflicts', () => {
  it('a transaction whose third mutation fails leaves nothing behind', async () => {
    await t.owner.create({_id: 'a-existing', _type: 'x', v: 'original'})
    const failing = t.owner
      .transaction()
      .create({_id: 'a-new-1', _type: 'x'})
      .patch('a-existing', (p) => p.set({v: 'changed'}))
      .create({_id: 'a-existing', _type: 'x'})
      .commit()
    await expect(failing).rejects.toBeInstanceOf(ClientError)
    expect(await t.owner.getDocument('a-new-1')).toBeUndefined()
    expect((await t.owner.getDocument('a-existing'))?.v).toBe('original')
  })

  it("create of an existing id is a 409 in Sanity's mutationError shape", async () => {
    const error = await t.owner.create({_id: 'a-existing', _type: 'x'}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClientError)
    expect(error).toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('already exists'),
      details: {
        type: 'mutationError',
        items: [
          {
            index: 0,
            error: {
              id: 'a-existing',
              type: 'documentAlreadyExistsError',
              description: expect.any(String),
            },
          },
        ],
      },
    })
  })
})

describe('access', () => {
  it('writes without a token are 401 and change nothing', async () => {
    const anon = t.client()
    await expect(anon.create({_id: 'acc-1', _type: 'x'})).rejects.toMatchObject({statusCode: 401})
    await expect(
      anon.action({
        actionType: 'sanity.action.document.create',
        publishedId: 'acc-2',
        attributes: {_id: 'drafts.acc-2', _type: 'x'},
        ifExists: 'fail',
      }),
    ).rejects.toMatchObject({statusCode: 401})
    expect(await t.owner.getDocument('acc-1')).toBeUndefined()
  })

  it('a wrong token is 401 on writes and on reads, never anonymous', async () => {
    const wrong = t.client({token: 'sk-not-the-token'})
    await expect(wrong.create({_id: 'acc-3', _type: 'x'})).rejects.toMatchObject({statusCode: 401})
    await expect(wrong.fetch('count(*)')).rejects.toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('Unauthorized'),
    })
    expect(await t.owner.getDocument('acc-3')).toBeUndefined()
  })
})
