import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {Lake} from '../lake.ts'

const dir = mkdtempSync(join(tmpdir(), 'lake-replicas-'))
const lake = new Lake({dataDir: dir, projectId: 'scriptorium', dataset: 'production'})
afterAll(() => {
  lake.close()
  rmSync(dir, {recursive: true, force: true})
})

/** The same count asked of the pool several times at once, so that every worker answers some. */
function counts(): Promise<number[]> {
  return Promise.all(
    Array.from({length: 9}, () =>
      lake.query<number>('count(*[_type == "note"])', {}, {authenticated: true}),
    ),
  )
}

it('a query sees every write acknowledged before it, however many came without a query between', async () => {
  // Starts the pool's workers; from here on they hear of commits only through the pool.
  expect(await counts()).toEqual(Array(9).fill(0))
  for (let i = 0; i < 40; i++) await lake.mutate([{create: {_id: `one-${i}`, _type: 'note'}}])
  expect(await counts()).toEqual(Array(9).fill(40))
  // More changes in one go than the pool holds back for a worker (queryPool.ts), then a few more.
  await lake.mutate(
    Array.from({length: 1100}, (_, i) => ({create: {_id: `many-${i}`, _type: 'note'}})),
  )
  for (let i = 0; i < 3; i++) await lake.mutate([{delete: {id: `one-${i}`}}])
  expect(await counts()).toEqual(Array(9).fill(1137))
})
