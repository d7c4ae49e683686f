import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// The Actions API (what the Studio uses for every write) through client.action().
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
})
afterAll(() => t.stop())

const get = (id: string) => t.owner.getDocument(id)

describe('document actions', () => {
  it('create makes a draft, edit changes it, publish moves it to the published id', async () => {
    const created = await t.owner.action({
      actionType: 'sanity.action.document.create',
      publishedId: 'act-1',
      attributes: {_id: 'drafts.act-1', _type: 'post', title: 'First draft'},
      ifExists: 'fail',
    })
    expect(created.transactionId).toEqual(expect.any(String))
    expect(await get('drafts.act-1')).toMatchObject({
      title: 'First draft',
      _rev: created.transactionId,
    })
    await t.owner.action({
      actionType: 'sanity.action.document.edit',
      draftId: 'drafts.act-1',
      publishedId: 'act-1',
      patch: {set: {title: 'Edited'}},
    })
    const draft = await get('drafts.act-1')
    await t.owner.action({
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.act-1',
      publishedId: 'act-1',
      ifDraftRevisionId: draft?._rev,
    })
    expect(await get('drafts.act-1')).toBeUndefined()
    expect(await get('act-1')).toMatchObject({_id: 'act-1', _type: 'post', title: 'Edited'})
    expect(await t.anon.fetch('*[_id == "act-1"][0].title')).toBe('Edited')
  })

  it('edit of a published document creates its draft from the published one', async () => {
    await t.owner.create({_id: 'act-2', _type: 'post', title: 'Live', body: 'kept'})
    await t.owner.action({
      actionType: 'sanity.action.document.edit',
      draftId: 'drafts.act-2',
      publishedId: 'act-2',
      patch: {set: {title: 'Live, edited'}},
    })
    expect(await get('drafts.act-2')).toMatchObject({
      _id: 'drafts.act-2',
      title: 'Live, edited',
      body: 'kept',
    })
    expect((await get('act-2'))?.title).toBe('Live')
  })

  it('publish with a stale ifPublishedRevisionId is a 409 and changes nothing', async () => {
    const published = await get('act-2')
    await t.owner.patch('act-2').set({title: 'Changed elsewhere'}).commit()
    const stale = t.owner.action({
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.act-2',
      publishedId: 'act-2',
      ifPublishedRevisionId: published?._rev,
    })
    await expect(stale).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('has changed'),
    })
    expect(await get('drafts.act-2')).toMatchObject({title: 'Live, edited'})
    expect((await get('act-2'))?.title).toBe('Changed elsewhere')
  })

  it('unpublish turns the published document back into a draft', async () => {
    await t.owner.create({_id: 'act-3', _type: 'post', title: 'To unpublish'})
    await t.owner.action({
      actionType: 'sanity.action.document.unpublish',
      draftId: 'drafts.act-3',
      publishedId: 'act-3',
    })
    expect(await get('act-3')).toBeUndefined()
    expect(await get('drafts.act-3')).toMatchObject({title: 'To unpublish'})
  })

  it('discard deletes the draft only; delete removes published and draft', async () => {
    await t.owner
      .transaction()
      .create({_id: 'act-4', _type: 'post'})
      .create({_id: 'drafts.act-4', _type: 'post'})
      .commit()
    await t.owner.action({actionType: 'sanity.action.document.discard', draftId: 'drafts.act-4'})
    expect(await get('drafts.act-4')).toBeUndefined()
    expect(await get('act-4')).toBeDefined()
    await t.owner.create({_id: 'drafts.act-4', _type: 'post'})
    await t.owner.action({
      actionType: 'sanity.action.document.delete',
      publishedId: 'act-4',
      includeDrafts: ['drafts.act-4'],
    })
    expect(await t.owner.getDocuments(['act-4', 'drafts.act-4'])).toEqual([null, null])
  })

  it('replaceDraft replaces the draft wholesale', async () => {
    await t.owner.create({_id: 'drafts.act-5', _type: 'post', title: 'Old', extra: true})
    await t.owner.action({
      actionType: 'sanity.action.document.replaceDraft',
      publishedId: 'act-5',
      attributes: {_id: 'drafts.act-5', _type: 'post', title: 'New'},
    })
    const draft = await get('drafts.act-5')
    expect(draft).toMatchObject({title: 'New'})
    expect(draft).not.toHaveProperty('extra')
  })
})

describe('action conflicts and bad input', () => {
  it('create of an existing draft is a 409 with a useful message', async () => {
    await t.owner.create({_id: 'drafts.act-6', _type: 'post'})
    await expect(
      t.owner.action({
        actionType: 'sanity.action.document.create',
        publishedId: 'act-6',
        attributes: {_id: 'drafts.act-6', _type: 'post'},
        ifExists: 'fail',
      }),
    ).rejects.toMatchObject({statusCode: 409, message: expect.stringContaining('already exists')})
  })

  it.each([
    [
      'publish without a draft',
      {actionType: 'sanity.action.document.publish', draftId: 'drafts.none', publishedId: 'none'},
    ],
    [
      'discard without a draft',
      {actionType: 'sanity.action.document.discard', draftId: 'drafts.none'},
    ],
    [
      'unpublish of an unpublished id',
      {actionType: 'sanity.action.document.unpublish', draftId: 'drafts.none', publishedId: 'none'},
    ],
    [
      'delete of a missing document',
      {actionType: 'sanity.action.document.delete', publishedId: 'none'},
    ],
  ])('%s is a 409', async (_name, action) => {
    await expect(t.owner.action(action as never)).rejects.toMatchObject({statusCode: 409})
  })

  it('a list of actions is one transaction: a failing second action undoes the first', async () => {
    const failing = t.owner.action([
      {
        actionType: 'sanity.action.document.create',
        publishedId: 'act-7',
        attributes: {_id: 'drafts.act-7', _type: 'post'},
        ifExists: 'fail',
      },
      {actionType: 'sanity.action.document.discard', draftId: 'drafts.missing'},
    ])
    await expect(failing).rejects.toMatchObject({statusCode: 409})
    expect(await get('drafts.act-7')).toBeUndefined()
  })

  it('an unknown action type is a 400 naming the supported ones', async () => {
    const unknown = t.owner.action({
      // @ts-expect-error -- an action type the API does not know, on purpose
      actionType: 'sanity.action.document.teleport',
      publishedId: 'x',
    })
    await expect(unknown).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('sanity.action.document.publish'),
    })
  })

  it('dryRun checks the actions and stores nothing', async () => {
    await t.owner.action(
      {
        actionType: 'sanity.action.document.create',
        publishedId: 'act-8',
        attributes: {_id: 'drafts.act-8', _type: 'post'},
        ifExists: 'fail',
      },
      {dryRun: true},
    )
    expect(await get('drafts.act-8')).toBeUndefined()
  })
})
