import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeHolding, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {previewIdleMs, PreviewSessions} from './previewSessions.ts'
import {authOf} from '../lake.ts'

// What a preview session's token may do against the lake, through the real @sanity/client.
describe('a preview session on the lake', () => {
  let t: LakeUnderTest
  beforeAll(async () => {
    t = await startLakeHolding([
      {_id: 'p1', _type: 'post', title: 'Published title', slug: {current: 'p1'}},
      {_id: 'drafts.p1', _type: 'post', title: 'Draft title', slug: {current: 'p1'}},
      {_id: 'drafts.p2', _type: 'post', title: 'Never published', slug: {current: 'p2'}},
      {_id: 'inbox.m1', _type: 'contactMessage', email: 'someone@example.com'},
      {_id: 'drafts.s1', _type: 'sanity.previewUrlSecret', secret: 'shh'},
    ])
  })
  afterAll(() => t.stop())

  /** A Studio session's token and a preview session opened on its behalf. */
  function openPreview() {
    const studioSession = authOf(t.lake).createSession()
    const identity = authOf(t.lake).verify(studioSession)
    const preview = authOf(t.lake).previews.open(identity?.session)
    return {studioSession, preview}
  }

  it('reads drafts over published documents, and no private or system documents', async () => {
    const {preview} = openPreview()
    const client = t.client({token: preview}).withConfig({perspective: 'drafts'})
    const titles = await client.fetch<string[]>('*[_type == "post"] | order(_id).title')
    expect(titles).toEqual(['Draft title', 'Never published'])
    expect(await client.fetch('count(*[_id in path("inbox.**")])')).toBe(0)
    expect(await client.fetch('*[_type == "sanity.previewUrlSecret"]')).toEqual([])
    const raw = await t.client({token: preview}).withConfig({perspective: 'raw'}).fetch('*._id')
    expect([...(raw as string[])].sort()).toEqual(['drafts.p1', 'drafts.p2', 'p1'])
  })

  it('writes nothing: mutations, actions and owner reads get 403', async () => {
    const {preview} = openPreview()
    const client = t.client({token: preview})
    await expect(client.create({_type: 'post', title: 'sneaky'})).rejects.toMatchObject({
      statusCode: 403,
    })
    const action = await t.fetch('/v2025-02-19/data/actions/production', {
      method: 'POST',
      token: preview,
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({
        actions: [
          {actionType: 'sanity.action.document.delete', draftId: 'drafts.p1', publishedId: 'p1'},
        ],
      }),
    })
    expect(action.status).toBe(403)
    expect((await t.fetch('/v2025-02-19/data/export/production', {token: preview})).status).toBe(
      403,
    )
    expect(await t.owner.fetch('count(*[_type == "post" && title == "sneaky"])')).toBe(0)
  })

  it('opens live events with drafts', async () => {
    const {preview} = openPreview()
    const res = await t.fetch('/v2025-02-19/data/live/events/production?includeDrafts=true', {
      token: preview,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    await res.body?.cancel()
  })

  it('ends with the Studio session that opened it', async () => {
    const {studioSession, preview} = openPreview()
    const client = t.client({token: preview}).withConfig({perspective: 'drafts'})
    expect(await client.fetch('*[_id == "p1"][0].title')).toBe('Draft title')
    authOf(t.lake).revokeSession(studioSession)
    await expect(client.fetch('*[_id == "p1"][0].title')).rejects.toMatchObject({statusCode: 401})
  })
})

describe('PreviewSessions', () => {
  it('end when unused for the idle lifetime, and remember the author of a secret', () => {
    let now = 1_000
    let parentLive = true
    const sessions = new PreviewSessions(
      () => parentLive,
      () => now,
    )
    const token = sessions.open('parent-hash')
    expect(sessions.check(token)).toMatchObject({preview: true, session: 'parent-hash'})
    now += previewIdleMs - 1
    expect(sessions.check(token)).toMatchObject({preview: true})
    now += previewIdleMs
    expect(sessions.check(token)).toBe('ended')
    expect(sessions.check('prvnever-issued')).toBeUndefined()
    expect(sessions.check('sessnot-a-preview-token')).toBeUndefined()

    sessions.noteSecretAuthor('drafts.s1', {userId: 'p-owner', session: 'parent-hash'})
    expect(sessions.authorOfSecret('drafts.s1')).toEqual({parent: 'parent-hash'})
    expect(sessions.authorOfSecret('drafts.unknown')).toBeUndefined()
    parentLive = false
    expect(sessions.authorOfSecret('drafts.s1')).toBeUndefined()
  })
})
