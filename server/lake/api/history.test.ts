import {applyPatch} from 'mendoza'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {importDocuments} from '../importer.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// The History API as the Studio's timeline and "Review changes" call it.
let t: LakeUnderTest
const base = '/v2025-02-19/data/history/production'
type Line = {
  id: string
  timestamp: string
  author: string
  documentIDs: string[]
  mutations?: unknown[]
  effects?: Record<string, {apply: unknown[]; revert: unknown[]}>
}

async function lines(query: string, ids = 'h-1,drafts.h-1'): Promise<Line[]> {
  const res = await t.fetch(`${base}/transactions/${ids}?${query}`, {token: t.token})
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/ndjson/)
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

const revs: string[] = []
beforeAll(async () => {
  t = await startLakeUnderTest()
  revs.push(
    (
      await t.owner.create({
        _id: 'h-1',
        _type: 'post',
        title: 'Gulmarg in February, when the gondola stops',
        n: 1,
      })
    )._rev,
  )
  revs.push(
    (
      await t.owner
        .patch('h-1')
        .set({title: 'Gulmarg in March, when the gondola stops'})
        .inc({n: 1})
        .commit()
    )._rev,
  )
  await t.owner.create({_id: 'unrelated', _type: 'post'})
  const edit = await t.owner.action({
    actionType: 'sanity.action.document.edit',
    draftId: 'drafts.h-1',
    publishedId: 'h-1',
    patch: {set: {title: 'Draft title'}},
  })
  revs.push(edit.transactionId)
  revs.push(
    (
      await t.owner.action({
        actionType: 'sanity.action.document.publish',
        draftId: 'drafts.h-1',
        publishedId: 'h-1',
      })
    ).transactionId,
  )
})
afterAll(() => t.stop())

describe('history: transactions', () => {
  it('lists the transactions of the documents oldest first, with effects that rebuild every revision', async () => {
    const all = await lines('effectFormat=mendoza')
    expect(all.map((l) => l.id)).toEqual(revs)
    expect(all[0]).toMatchObject({
      author: 'p-owner',
      documentIDs: ['h-1'],
      timestamp: expect.any(String),
      mutations: [{create: expect.any(Object)}],
    })
    expect(all[3].documentIDs.sort()).toEqual(['drafts.h-1', 'h-1'])
    const state: Record<string, unknown> = {'h-1': null, 'drafts.h-1': null}
    for (const line of all) {
      for (const [id, effect] of Object.entries(line.effects!)) {
        const next = applyPatch(state[id], effect.apply)
        expect(applyPatch(next, effect.revert)).toEqual(state[id])
        state[id] = next
        // Each rebuilt revision is the document the history API has for that revision.
        if (next) {
          const res = await t.fetch(`${base}/documents/${id}?revision=${line.id}`, {token: t.token})
          const {_rev, ...stored} = (await res.json()).documents[0]
          expect(next).toEqual(stored)
          expect(_rev).toBe(line.id)
        }
      }
    }
    const {_rev, ...current} = (await t.owner.getDocument('h-1'))!
    expect(state['h-1']).toEqual(current)
    expect(state['drafts.h-1']).toBeNull()
  })

  it('pages newest first like the Studio (reverse, limit, toTransaction inclusive, excludeContent)', async () => {
    const page = await lines(
      'excludeContent=true&limit=2&includeIdentifiedDocumentsOnly=true&effectFormat=mendoza&reverse=true',
    )
    expect(page.map((l) => l.id)).toEqual([revs[3], revs[2]])
    expect(page[0]).not.toHaveProperty('mutations')
    expect(page[0].effects).toBeDefined()
    const older = await lines(`reverse=true&limit=50&toTransaction=${revs[1]}`)
    expect(older.map((l) => l.id)).toEqual([revs[1], revs[0]])
    const from = await lines(`fromTransaction=${revs[1]}&toTransaction=${revs[2]}`)
    expect(from.map((l) => l.id)).toEqual([revs[1], revs[2]])
    expect(from[0]).not.toHaveProperty('effects')
  })

  it('includeIdentifiedDocumentsOnly narrows a multi-document transaction to the asked ids', async () => {
    const [publish] = await lines(
      `fromTransaction=${revs[3]}&includeIdentifiedDocumentsOnly=true&effectFormat=mendoza`,
      'h-1',
    )
    expect(publish.documentIDs).toEqual(['h-1'])
    expect(Object.keys(publish.effects!)).toEqual(['h-1'])
    const [wide] = await lines(`fromTransaction=${revs[3]}`, 'h-1')
    expect(wide.documentIDs.sort()).toEqual(['drafts.h-1', 'h-1'])
  })

  it('reports an imported revision under the _rev the document kept, so the Studio can align it', async () => {
    importDocuments(t.lake, [
      {_id: 'imp-1', _type: 'post', _rev: 'rev-from-hosted', title: 'Imported'},
    ])
    const [line] = await lines('effectFormat=mendoza', 'imp-1,drafts.imp-1')
    expect(line.id).toBe('rev-from-hosted')
    expect(
      await lines('reverse=true&toTransaction=rev-from-hosted', 'imp-1,drafts.imp-1'),
    ).toHaveLength(1)
    // A draft made later is asked for from its published document's imported revision.
    await t.owner.create({_id: 'drafts.imp-1', _type: 'post', title: 'Imported, edited'})
    const draftHistory = await lines('fromTransaction=rev-from-hosted', 'drafts.imp-1')
    expect(draftHistory.map((line) => line.documentIDs)).toEqual([['drafts.imp-1']])
  })

  it('filters by time', async () => {
    const all = await lines('')
    const since = await lines(`fromTime=${encodeURIComponent(all[2].timestamp)}`)
    expect(since.map((l) => l.id)).toEqual(
      all.filter((l) => Date.parse(l.timestamp) >= Date.parse(all[2].timestamp)).map((l) => l.id),
    )
    expect(await lines('toTime=2000-01-01T00:00:00Z')).toEqual([])
  })
})

describe('history: documents and events', () => {
  it('answers a document as of a revision, a time, or its last revision; an empty list when there is none', async () => {
    const atFirst = await t.fetch(`${base}/documents/h-1,drafts.h-1?revision=${revs[0]}`, {
      token: t.token,
    })
    expect((await atFirst.json()).documents).toEqual([
      expect.objectContaining({_id: 'h-1', _rev: revs[0], n: 1}),
    ])
    const now = await t.fetch(
      `${base}/documents/h-1?time=${new Date(Date.now() + 60_000).toISOString()}`,
      {token: t.token},
    )
    expect((await now.json()).documents[0]).toEqual(await t.owner.getDocument('h-1'))
    const draft = await t.fetch(`${base}/documents/drafts.h-1?lastRevision=true`, {token: t.token})
    expect((await draft.json()).documents[0]).toMatchObject({
      _id: 'drafts.h-1',
      title: 'Draft title',
    })
    const none = await t.fetch(`${base}/documents/h-1?revision=nope`, {token: t.token})
    expect(none.status).toBe(200)
    expect(await none.json()).toEqual({documents: []})
    const before = await t.fetch(`${base}/documents/h-1?time=2000-01-01T00:00:00Z`, {
      token: t.token,
    })
    expect(await before.json()).toEqual({documents: []})
  })

  it('lists lifecycle events newest first for the Studio', async () => {
    const res = await t.fetch(`${base}/events/documents/h-1?limit=100`, {token: t.token})
    const body = await res.json()
    expect(body.nextCursor).toBe('')
    expect(body.events['h-1'].map((e: {type: string}) => e.type)).toEqual([
      'publishDocumentVersion',
      'createDocumentVersion',
      'updateLiveDocument',
      'createLiveDocument',
    ])
    expect(body.events['h-1'][0]).toMatchObject({
      documentId: 'h-1',
      revisionId: revs[3],
      versionId: 'drafts.h-1',
      versionRevisionId: revs[2],
      author: 'p-owner',
    })
    const page = await (
      await t.fetch(`${base}/events/documents/h-1?limit=1`, {token: t.token})
    ).json()
    expect(page.events['h-1']).toHaveLength(1)
    const rest = await (
      await t.fetch(`${base}/events/documents/h-1?limit=100&nextCursor=${page.nextCursor}`, {
        token: t.token,
      })
    ).json()
    expect(rest.events['h-1']).toHaveLength(3)
  })

  it('reports a document written straight to its published id as created live, asked by either id', async () => {
    // The Studio asks by the draft id in the drafts perspective; "createDocumentVersion" there
    // would read "Draft created" for a document that never had a draft.
    const rev = (await t.owner.create({_id: 'live-1', _type: 'post', title: 'Seeded'}))._rev
    for (const id of ['live-1', 'drafts.live-1']) {
      const body = await (await t.fetch(`${base}/events/documents/${id}`, {token: t.token})).json()
      expect(body.events[id]).toEqual([
        {
          type: 'createLiveDocument',
          revisionId: rev,
          documentId: 'live-1',
          author: 'p-owner',
          timestamp: expect.any(String),
        },
      ])
    }
  })

  it('refuses anonymous callers and bad parameters', async () => {
    for (const path of [
      '/transactions/h-1',
      '/documents/h-1?lastRevision=true',
      '/events/documents/h-1',
    ]) {
      const res = await t.fetch(base + path)
      expect(res.status).toBe(401)
      expect((await res.json()).error).toBeDefined()
    }
    for (const query of ['limit=0', 'fromTime=yesterday', 'fromTransaction=unknown-tx']) {
      const res = await t.fetch(`${base}/transactions/h-1?${query}`, {token: t.token})
      expect(res.status).toBe(400)
    }
    const both = await t.fetch(`${base}/documents/h-1?revision=${revs[0]}&lastRevision=true`, {
      token: t.token,
    })
    expect(both.status).toBe(400)
    expect(await t.owner.fetch('count(*[_id == "h-1"])')).toBe(1)
  })
})

describe('malformed ids', () => {
  it('answers a bad percent-escape with a 400, not a 500', async () => {
    for (const path of ['transactions/%25', 'transactions/%25zz,h-1', 'events/documents/%25']) {
      const res = await t.fetch(`${base}/${path}`, {token: t.token})
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({error: {type: 'httpBadRequest'}})
    }
  })
})
