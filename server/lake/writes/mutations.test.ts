import {describe, expect, it} from 'vitest'
import {TransactionBuilder, withArrayKeys, type WorkingState} from './mutations.ts'
import type {Doc} from '../types.ts'

// The transaction builder in process: later mutations see earlier ones; changes are net.
function builder(docs: Doc[] = []) {
  const byId = new Map(docs.map((d) => [d._id, d]))
  const base = {get: (id: string) => byId.get(id), snapshot: () => [...byId.values()]}
  const selectAll = async (_q: string, _p: Record<string, unknown>, working: WorkingState) =>
    working.documents().map((d) => d._id)
  return new TransactionBuilder(base, selectAll, {
    transactionId: 'tx1',
    timestamp: new Date('2026-02-03T04:05:06.789Z'),
  })
}

describe('TransactionBuilder', () => {
  it('stamps _rev with the transaction id and second-precision UTC timestamps', async () => {
    const tx = builder()
    await tx.apply({create: {_id: 'a', _type: 'note'}}, 0)
    expect(tx.get('a')).toEqual({
      _id: 'a',
      _type: 'note',
      _rev: 'tx1',
      _createdAt: '2026-02-03T04:05:06Z',
      _updatedAt: '2026-02-03T04:05:06Z',
    })
  })

  it('lets later mutations see earlier ones and reports the net change once per document', async () => {
    const tx = builder([{_id: 'a', _type: 'note', n: 1, _createdAt: '2020-01-01T00:00:00Z'}])
    await tx.apply({patch: {id: 'a', inc: {n: 1}}}, 0)
    await tx.apply({patch: {id: 'a', inc: {n: 1}}}, 1)
    await tx.apply({create: {_id: 'tmp', _type: 'note'}}, 2)
    await tx.apply({delete: {id: 'tmp'}}, 3)
    const changes = tx.changes()
    expect(changes.map((c) => c.id)).toEqual(['a'])
    expect(changes[0].before).toMatchObject({n: 1})
    expect(changes[0].after).toMatchObject({n: 3, _createdAt: '2020-01-01T00:00:00Z'})
    expect(changes[0].mutations).toHaveLength(2)
  })

  it('patches by query against the working state, including documents created earlier in it', async () => {
    const tx = builder([{_id: 'a', _type: 'note'}])
    await tx.apply({create: {_id: 'b', _type: 'note'}}, 0)
    const results = await tx.apply({patch: {query: '*', set: {seen: true}}}, 1)
    expect(results.map((r) => r.id).sort()).toEqual(['a', 'b'])
    expect(tx.documents().every((d) => d.seen === true)).toBe(true)
  })

  it('refuses a create over an existing id with a 409 naming the index', async () => {
    const tx = builder([{_id: 'a', _type: 'note'}])
    await expect(tx.apply({create: {_id: 'a', _type: 'note'}}, 4)).rejects.toMatchObject({
      status: 409,
      details: {items: [{index: 4, error: {type: 'documentAlreadyExistsError', id: 'a'}}]},
    })
  })
})

describe('withArrayKeys', () => {
  it('adds _key to objects in arrays at any depth and keeps existing keys and scalars', () => {
    const keyed = withArrayKeys({
      list: [{a: 1}, {_key: 'k', b: [{c: 1}]}, 'text'],
      nested: {deep: [{d: 1}]},
    }) as {list: unknown[]; nested: {deep: unknown[]}}
    expect(keyed.list[0]).toMatchObject({_key: expect.stringMatching(/^[0-9a-f]{12}$/), a: 1})
    expect(keyed.list[1]).toMatchObject({_key: 'k', b: [{_key: expect.any(String), c: 1}]})
    expect(keyed.list[2]).toBe('text')
    expect(keyed.nested.deep[0]).toMatchObject({_key: expect.any(String), d: 1})
  })
})
