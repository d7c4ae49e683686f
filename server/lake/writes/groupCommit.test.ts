import {describe, expect, it} from 'vitest'
import {tempLakes} from '../testing/tempLakes.ts'
import {storeOf} from '../lake.ts'
import type {CommittedTransaction} from '../types.ts'

const {open: openLake, dirs} = tempLakes('lake-group-')

describe('group commit', () => {
  it('keeps concurrent transactions serializable, each its own durable log entry in order', async () => {
    const lake = openLake()
    await lake.mutate([{create: {_id: 'counter', _type: 'counter', n: 0}}])
    const seen: CommittedTransaction[] = []
    lake.onCommit((tx) => seen.push(tx))
    const results = await Promise.all(
      Array.from({length: 25}, () => lake.mutate([{patch: {id: 'counter', inc: {n: 1}}}])),
    )
    expect(lake.getDocument('counter')?.n).toBe(25)
    expect(new Set(results.map((r) => r.transactionId)).size).toBe(25)
    // Each transaction saw the one before it: the revisions chain without a gap.
    const ns = seen.map((tx) => tx.changes[0].after?.n)
    expect(ns).toEqual(Array.from({length: 25}, (_, i) => i + 1))
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].changes[0].before?._rev).toBe(seen[i - 1].id)
      expect(seen[i].seq).toBe(seen[i - 1].seq + 1)
    }
    const dir = dirs[0]
    lake.close()
    const reopened = openLake(dir)
    expect(reopened.getDocument('counter')).toMatchObject({n: 25, _rev: seen[24].id})
    expect(storeOf(reopened).transactionsSince(0).length).toBe(26)
    reopened.close()
  })

  it('places a document deleted and created again by transactions of one batch at the end of `*`', async () => {
    const lake = openLake()
    const note = (_id: string) => ({_id, _type: 'note'})
    await lake.mutate([{create: note('a')}, {create: note('b')}, {create: note('c')}])
    const ids = () => lake.query<string[]>('*._id', {}, {authenticated: true})
    expect(await ids()).toEqual(['a', 'b', 'c'])
    // Built in one turn, so written in one batch; the patch selects over the pending two (the
    // group commit's overlay, documentOrder.ts), where `a` is already last.
    await Promise.all([
      lake.mutate([{delete: {id: 'a'}}]),
      lake.mutate([{create: note('a')}]),
      lake.mutate([{patch: {query: '*[0...1]', set: {first: true}}}]),
    ])
    expect(await ids()).toEqual(['b', 'c', 'a'])
    expect(await lake.query('*[first]._id', {}, {authenticated: true})).toEqual(['b'])
    const dir = dirs[0]
    lake.close()
    const reopened = openLake(dir)
    expect(
      storeOf(reopened)
        .snapshot()
        .map((doc) => doc._id),
    ).toEqual(['b', 'c', 'a'])
    reopened.close()
  })

  it('answers a failing transaction alone while its neighbours commit', async () => {
    const lake = openLake()
    const [ok, failed, alsoOk] = await Promise.allSettled([
      lake.mutate([{create: {_id: 'a', _type: 't'}}]),
      lake.mutate([{create: {_id: 'a', _type: 't'}}]),
      lake.mutate([{create: {_id: 'b', _type: 't'}}]),
    ])
    expect(ok.status).toBe('fulfilled')
    expect(failed).toMatchObject({status: 'rejected', reason: {status: 409}})
    expect(alsoOk.status).toBe('fulfilled')
    expect(lake.getDocument('b')).toBeDefined()
    lake.close()
  })
})
