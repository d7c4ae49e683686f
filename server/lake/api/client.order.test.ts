import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// The order of `*` (documentOrder.ts) over the real @sanity/client: the array groq-js would hold
// had each write been applied to it, whichever query worker answers, and after a restart.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-order-'))
let t: LakeUnderTest | undefined
afterAll(async () => {
  await t?.stop()
  rmSync(dataDir, {recursive: true, force: true})
})

/**
 * `*._id` and `*[0...3]._id`, each asked through 30 distinct query texts at once (so neither the
 * query cache nor one worker answers them all: the pool spreads them over its workers); every
 * answer distinct from the first is returned, so one list means every worker agreed.
 */
async function answers(lake: LakeUnderTest): Promise<{all: unknown[]; first3: unknown[]}> {
  const ask = (slice: string) =>
    Promise.all(
      Array.from({length: 30}, (_, i) => lake.owner.fetch(`*[${i} >= 0]${slice}._id`)),
    ).then((results) => [...new Set(results.map((ids) => JSON.stringify(ids)))].map(parse))
  const [all, first3] = await Promise.all([ask(''), ask('[0...3]')])
  return {all, first3}
}

const parse = (json: string): unknown => JSON.parse(json)

it('keeps `*` in the order its writes give, on every query worker and after a restart', async () => {
  t = await startLakeUnderTest({dataDir})
  const lake = t
  // Every worker starts and loads its replica now, so each hears of the writes below as changes.
  expect((await answers(lake)).all).toEqual([[]])

  const docs = (ids: string[]) => ids.map((_id) => ({_id, _type: 'note'}))
  let tx = lake.owner.transaction()
  for (const doc of docs(['d', 'c', 'b', 'a'])) tx = tx.create(doc)
  await tx.commit()
  // As a client empties a dataset and imports the next: delete all, then createOrReplace.
  await lake.owner.delete({query: '*'})
  tx = lake.owner.transaction()
  for (const doc of docs(['a', 'b', 'c', 'd'])) tx = tx.createOrReplace(doc)
  await tx.commit()
  expect(await answers(lake)).toEqual({all: [['a', 'b', 'c', 'd']], first3: [['a', 'b', 'c']]})

  // A replace keeps its place, a delete leaves, a creation (a draft too) is appended, and one
  // deleted and created again by a later transaction goes to the end: never id order.
  await lake.owner
    .transaction()
    .createOrReplace({_id: 'a', _type: 'note', title: 'replaced'})
    .delete('b')
    .create({_id: 'aa', _type: 'note'})
    .commit()
  await lake.owner.create({_id: 'drafts.c', _type: 'note'})
  await lake.owner.create({_id: 'b', _type: 'note'})
  await lake.owner.delete('c')
  await lake.owner.create({_id: 'c', _type: 'note'})
  const expected = {
    all: [['a', 'd', 'aa', 'drafts.c', 'b', 'c']],
    first3: [['a', 'd', 'aa']],
  }
  expect(await answers(lake)).toEqual(expected)
  // A patch by query selects in the same order.
  await lake.owner.patch({query: '*[_type == "note"][0...2]'}).set({picked: true}).commit()
  expect(await lake.owner.fetch('*[picked]._id')).toEqual(['a', 'd'])

  await lake.stop()
  t = await startLakeUnderTest({dataDir})
  expect(await answers(t)).toEqual(expected)
  expect(await t.owner.fetch('*[0]{_id, title}')).toEqual({_id: 'a', title: 'replaced'})
})
