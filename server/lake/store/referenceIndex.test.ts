import {describe, expect, it} from 'vitest'
import {tempLakes} from '../testing/tempLakes.ts'
import {ReferenceIndex} from './referenceIndex.ts'

const {open: openLake} = tempLakes('lake-refs-')

describe('ReferenceIndex', () => {
  it('knows what existing documents refer to, then follows each commit', async () => {
    const lake = openLake()
    await lake.mutate([
      {create: {_id: 'author-1', _type: 'author', name: 'Ada'}},
      {create: {_id: 'post-1', _type: 'post', author: {_type: 'reference', _ref: 'author-1'}}},
    ])
    const index = new ReferenceIndex(lake)
    expect(index.referencesAny(['author-1'])).toBe(true)
    expect(index.referencesAny(['post-1', 'image-1'])).toBe(false)

    // A reference nested in a Portable Text body counts; a second referrer keeps it counted.
    await lake.mutate([
      {
        create: {
          _id: 'post-2',
          _type: 'post',
          body: [{_type: 'image', asset: {_type: 'reference', _ref: 'image-1'}}],
          author: {_type: 'reference', _ref: 'author-1'},
        },
      },
    ])
    expect(index.referencesAny(['image-1'])).toBe(true)

    await lake.mutate([{patch: {id: 'post-1', unset: ['author']}}])
    expect(index.referencesAny(['author-1'])).toBe(true)
    await lake.mutate([{delete: {id: 'post-2'}}])
    expect(index.referencesAny(['author-1'])).toBe(false)
    expect(index.referencesAny(['image-1'])).toBe(false)
    lake.close()
  })

  it('agrees with a fresh scan after many commits', async () => {
    const lake = openLake()
    const index = new ReferenceIndex(lake)
    expect(index.referencesAny(['a-0'])).toBe(false)
    for (let i = 0; i < 20; i++) {
      await lake.mutate([
        {createOrReplace: {_id: `p-${i}`, _type: 'post', ref: {_ref: `a-${i % 3}`}}},
        ...(i % 4 === 0 ? [{delete: {id: `p-${i - 1}`}}] : []),
      ])
    }
    const fresh = new ReferenceIndex(lake)
    for (const id of ['a-0', 'a-1', 'a-2', 'a-3'])
      expect(index.referencesAny([id])).toBe(fresh.referencesAny([id]))
    lake.close()
  })
})
