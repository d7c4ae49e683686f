import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeHolding, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

/** What @sanity/client reports of a refused request: status and the lake's JSON error. */
async function refusal(request: Promise<unknown>) {
  const error: unknown = await request.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof Error) || !('statusCode' in error) || !('details' in error))
    throw new Error('the lake accepted what it should refuse')
  return {status: error.statusCode, details: error.details}
}

const ref = (id: string, weak = false) => ({
  _type: 'reference',
  _ref: id,
  ...(weak && {_weak: true}),
})

describe('deleting a document that a published document references strongly', () => {
  let t: LakeUnderTest

  beforeAll(async () => {
    t = await startLakeHolding([
      {_id: 'cat-a', _type: 'category', title: 'A'},
      {_id: 'cat-b', _type: 'category', title: 'B'},
      {_id: 'cat-c', _type: 'category', title: 'C'},
      {_id: 'post-1', _type: 'post', category: ref('cat-a')},
      {_id: 'post-2', _type: 'post', tags: [{_key: 'k', ...ref('cat-a')}]},
      {_id: 'drafts.post-3', _type: 'post', category: ref('cat-b')},
      {_id: 'post-4', _type: 'post', category: ref('cat-c', true)},
    ])
  })

  afterAll(() => t?.stop())

  it('is refused with hosted Sanity’s error, naming the referring documents, and changes nothing', async () => {
    const revision = t.lake.revision
    const {status, details} = await refusal(t.owner.delete('cat-a'))
    expect(status).toBe(409)
    expect(details).toMatchObject({
      type: 'mutationError',
      description:
        'The mutation(s) failed: Document "cat-a" cannot be deleted as there are references to it from "post-1"',
      items: [
        {
          error: {
            type: 'documentHasExistingReferencesError',
            id: 'cat-a',
            referencingIDs: ['post-1', 'post-2'],
          },
        },
      ],
    })
    expect(await t.owner.getDocument('cat-a')).toMatchObject({title: 'A'})
    expect(t.lake.revision).toBe(revision)
  })

  it('is refused as a dry run too, and through the delete action the Studio sends', async () => {
    const dry = await refusal(t.owner.delete('cat-a', {dryRun: true}))
    expect(dry.status).toBe(409)
    const action = await refusal(
      t.owner.action({
        actionType: 'sanity.action.document.delete',
        publishedId: 'cat-a',
        includeDrafts: [],
      }),
    )
    expect(action.status).toBe(409)
    expect(JSON.stringify(action.details)).toContain('documentHasExistingReferencesError')
    expect(await t.owner.getDocument('cat-a')).toBeDefined()
  })

  it('is allowed when only drafts or weak references point at it', async () => {
    await t.owner.delete('cat-b')
    await t.owner.delete('cat-c')
    expect(await t.owner.getDocument('cat-b')).toBeUndefined()
    expect(await t.owner.getDocument('cat-c')).toBeUndefined()
  })

  it('is allowed once the references go, in the same transaction or before', async () => {
    await t.owner.transaction().delete('post-2').delete('post-1').delete('cat-a').commit()
    expect(await t.owner.getDocument('cat-a')).toBeUndefined()
  })
})
