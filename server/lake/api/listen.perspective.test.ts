import type {SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {sseReader} from '../../../test/support/sseReader.ts'

// `perspective` on the listener: events for documents as a release (or a stack) shows them,
// under their published ids. @sanity/client 8.11's listen() sends only its own option list
// (data/listen.ts `possibleOptions`, without `perspective`), so these listeners speak HTTP.
let t: LakeUnderTest
let owner: SanityClient
const streams: AbortController[] = []

beforeAll(async () => {
  t = await startLakeUnderTest()
  owner = t.client({token: t.token, apiVersion: '2025-02-19'})
  await owner.create({_id: 'lp-1', _type: 'post', title: 'Published'})
  await owner.releases.create({releaseId: 'rL', metadata: {title: 'Listen'}})
  await owner.createVersion({baseId: 'lp-1', publishedId: 'lp-1', releaseId: 'rL'})
})
afterAll(async () => {
  for (const stream of streams) stream.abort()
  await t.stop()
})

type Event = {documentId: string; transition: string; result?: Record<string, unknown>}

/** Opens a listener on every post with `perspective`; `upTo(id)` returns its events before id's. */
async function listen(perspective: string, token?: string) {
  const controller = new AbortController()
  streams.push(controller)
  const query = encodeURIComponent('*[_type == "post"]')
  const res = await t.fetch(
    `/v2025-02-19/data/listen/production?query=${query}&includeResult=true&perspective=${perspective}`,
    {token, signal: controller.signal},
  )
  expect(res.status).toBe(200)
  const next = sseReader(res.body!)
  expect(await next()).toMatchObject({event: 'welcome'})
  return {
    async upTo(marker: string): Promise<Event[]> {
      const events: Event[] = []
      for (;;) {
        const {event, data} = await next()
        if (event !== 'mutation') continue
        const mutation = data as Event
        if (mutation.documentId === marker) return events
        events.push(mutation)
      }
    },
  }
}

const titles = (events: Event[]) =>
  events.map((event) => [event.documentId, event.result?.title, event.result?._originalId])

describe('listen with a perspective', () => {
  it('a release, a stack and drafts each see their layer; an anonymous reader only the published', async () => {
    const release = await listen('rL', t.token)
    const stack = await listen('rL,drafts', t.token)
    const drafts = await listen('drafts', t.token)
    const anonymous = await listen('rL')

    const edit = (id: string, title: string) =>
      owner.action({
        actionType: 'sanity.action.document.edit',
        draftId: id,
        publishedId: 'lp-1',
        patch: {set: {title}},
      })
    await edit('versions.rL.lp-1', 'In the release')
    await edit('drafts.lp-1', 'A draft')
    await owner.patch('lp-1').set({title: 'Published again'}).commit()
    await owner.releases.publish({releaseId: 'rL'})
    await owner.create({_id: 'lp-end', _type: 'post', title: 'End'})

    const published = ['lp-1', 'In the release', undefined]
    expect(titles(await release.upTo('lp-end'))).toEqual([
      ['lp-1', 'In the release', 'versions.rL.lp-1'],
      ['lp-1', 'In the release', 'lp-1'],
    ])
    // The release hides the draft beneath it.
    expect(titles(await stack.upTo('lp-end'))).toEqual([
      ['lp-1', 'In the release', 'versions.rL.lp-1'],
      ['lp-1', 'A draft', 'drafts.lp-1'],
    ])
    expect(titles(await drafts.upTo('lp-end'))).toEqual([['lp-1', 'A draft', 'drafts.lp-1']])
    expect(titles(await anonymous.upTo('lp-end'))).toEqual([
      ['lp-1', 'Published again', undefined],
      published,
    ])
  })

  it('a version marked to unpublish its document makes it disappear from the release', async () => {
    await owner.create({_id: 'lp-2', _type: 'post', title: 'To be unpublished'})
    await owner.releases.create({releaseId: 'rGone', metadata: {title: 'Gone'}})
    const release = await listen('rGone', t.token)
    await owner.action({
      actionType: 'sanity.action.document.version.unpublish',
      versionId: 'versions.rGone.lp-2',
      publishedId: 'lp-2',
    })
    await owner.create({_id: 'lp-end-2', _type: 'post', title: 'End'})
    expect(await release.upTo('lp-end-2')).toMatchObject([
      {documentId: 'lp-2', transition: 'disappear'},
    ])
  })

  it('refuses a malformed perspective with a 400 before the stream opens', async () => {
    for (const perspective of ['bad.id', 'raw,drafts', 'rL,rL']) {
      const res = await t.fetch(
        `/v2025-02-19/data/listen/production?query=*&perspective=${perspective}`,
        {token: t.token},
      )
      expect(res.status, perspective).toBe(400)
      expect(await res.json()).toMatchObject({error: {description: expect.any(String)}})
    }
  })
})
