import type {MutationEvent, SanityClient} from '@sanity/client'
import {applyPatch} from 'mendoza'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// The listener through the real @sanity/client (EventSource over fetch) against a real server.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
})
afterAll(() => t.stop())

type Received = {type: string; [key: string]: unknown}

/** Subscribes and collects events; `until(n)` resolves once n events have arrived. */
function collect(
  client: SanityClient,
  query: string,
  params: Record<string, unknown>,
  options: Record<string, unknown> = {},
) {
  const events: Received[] = []
  const waiters: Array<{n: number; resolve: () => void}> = []
  let failure: unknown
  const subscription = client
    .listen(query, params, {
      events: ['welcome', 'mutation'],
      includeResult: true,
      effectFormat: 'mendoza',
      ...options,
    })
    .subscribe({
      next(event) {
        events.push(event as unknown as Received)
        for (const w of waiters.filter((w) => events.length >= w.n)) w.resolve()
      },
      error(error) {
        failure = error
      },
    })
  return {
    events,
    get failure() {
      return failure
    },
    until: (n: number) =>
      new Promise<Received[]>((resolve) => {
        if (events.length >= n) return resolve(events)
        waiters.push({n, resolve: () => resolve(events)})
      }),
    stop: () => subscription.unsubscribe(),
  }
}

const withoutRev = (doc: unknown) => {
  if (!doc || typeof doc !== 'object') return doc
  const {_rev, ...rest} = doc as Record<string, unknown>
  return rest
}

describe('listen', () => {
  it('sends welcome, then create/patch/delete with transitions, mutations, results and chained revisions', async () => {
    const l = collect(t.owner, '*[_type == "note" && _id == $id]', {id: 'note-1'})
    await l.until(1)
    expect(l.events[0]).toMatchObject({type: 'welcome', listenerName: expect.any(String)})
    const created = await t.owner.create({
      _id: 'note-1',
      _type: 'note',
      title: 'Dal Lake at dawn, a long title for the string diff',
    })
    await t.owner
      .patch('note-1')
      .set({title: 'Dal Lake at dusk, a long title for the string diff'})
      .commit()
    await t.owner.delete('note-1')
    await t.owner.create({_id: 'note-2', _type: 'note'}) // does not match: no event
    const [, create, patch, remove] = (await l.until(4)) as unknown as MutationEvent[]
    l.stop()
    expect(l.events).toHaveLength(4)
    expect(create).toMatchObject({
      type: 'mutation',
      transition: 'appear',
      documentId: 'note-1',
      identity: 'p-owner',
      resultRev: created._rev,
      visibility: 'query',
    })
    expect(create.previousRev).toBeUndefined()
    expect(create.mutations).toEqual([{create: expect.objectContaining({_id: 'note-1'})}])
    expect(patch).toMatchObject({
      transition: 'update',
      previousRev: created._rev,
      result: {title: expect.stringContaining('dusk')},
    })
    expect(patch.mutations[0]).toHaveProperty('patch')
    expect(remove).toMatchObject({transition: 'disappear', previousRev: patch.resultRev})
    expect(remove.resultRev).toBe(remove.transactionId)
    expect(remove.result).toBeUndefined()
    for (const event of [create, patch, remove]) {
      expect(event.eventId).toBe(`${event.transactionId}#note-1`)
      expect(event).toMatchObject({
        transactionTotalEvents: 1,
        transactionCurrentEvent: 1,
        timestamp: expect.any(String),
      })
    }
    // Effects rebuild each revision from the previous one, and back.
    const v1 = applyPatch(null, create.effects!.apply)
    expect(v1).toEqual(withoutRev(create.result))
    const v2 = applyPatch(v1, patch.effects!.apply)
    expect(v2).toEqual(withoutRev(patch.result))
    expect(applyPatch(v2, patch.effects!.revert)).toEqual(v1)
    expect(applyPatch(v2, remove.effects!.apply)).toBeNull()
  })

  it('emits both documents of a publish (one transaction) with totals, and honours includeMutations=false', async () => {
    await t.owner.create({_id: 'drafts.pub-1', _type: 'post', title: 'Draft'})
    const l = collect(
      t.owner,
      '*[_id in $ids]',
      {ids: ['pub-1', 'drafts.pub-1']},
      {includeMutations: false, includeResult: false},
    )
    await l.until(1)
    await t.owner.action({
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.pub-1',
      publishedId: 'pub-1',
    })
    const [, first, second] = (await l.until(3)) as unknown as MutationEvent[]
    l.stop()
    const byId = Object.fromEntries([first, second].map((e) => [e.documentId, e]))
    expect(byId['pub-1']).toMatchObject({transition: 'appear', transactionTotalEvents: 2})
    expect(byId['drafts.pub-1']).toMatchObject({transition: 'disappear', transactionTotalEvents: 2})
    expect([first.transactionCurrentEvent, second.transactionCurrentEvent]).toEqual([1, 2])
    expect(first.transactionId).toBe(second.transactionId)
    expect(first).not.toHaveProperty('mutations')
    expect(first).not.toHaveProperty('result')
  })

  it('never shows drafts or other dotted ids to an anonymous listener', async () => {
    const anon = collect(t.client(), '*[_type == "secret"]', {})
    const owner = collect(t.owner, '*[_type == "secret"]', {})
    await Promise.all([anon.until(1), owner.until(1)])
    await t.owner.create({_id: 'drafts.s-1', _type: 'secret'})
    await t.owner.create({_id: 'inbox.s-2', _type: 'secret'})
    await t.owner.create({_id: 's-3', _type: 'secret'})
    await owner.until(4)
    await anon.until(2)
    anon.stop()
    owner.stop()
    expect(owner.events.slice(1).map((e) => e.documentId)).toEqual([
      'drafts.s-1',
      'inbox.s-2',
      's-3',
    ])
    expect(anon.events.slice(1).map((e) => e.documentId)).toEqual(['s-3'])
  })

  it('answers a malformed query, a bad param and a wrong token with JSON errors before streaming', async () => {
    const bad = await t.fetch('/v2023-07-29/data/listen/production?query=*%5B_type%20%3D%3D')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({error: {type: 'queryParseError'}})
    const param = await t.fetch(
      '/v2023-07-29/data/listen/production?query=*%5B_id%3D%3D%24id%5D&%24id=nope',
    )
    expect(param.status).toBe(400)
    const token = await t.fetch('/v2023-07-29/data/listen/production?query=*', {token: 'wrong'})
    expect(token.status).toBe(401)
    expect((await token.json()).error).toBeDefined()
    const missing = await t.fetch('/v2023-07-29/data/listen/staging?query=*')
    expect(missing.status).toBe(404)
    const l = collect(t.client(), '*[', {})
    await expect.poll(() => l.failure).toBeDefined()
    // A 4xx is final for the client: it errors instead of reconnecting forever.
    expect(l.failure).toMatchObject({name: 'ConnectionFailedError', status: 400})
  })
})
