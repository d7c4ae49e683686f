import type {SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

// A release's Activity panel, as the Studio asks for it (client.request on
// /data/history/{dataset}/events/releases/{id}?limit=…&nextCursor=…), from the real log.
let t: LakeUnderTest
let owner: SanityClient

type Page = {events: Array<Record<string, unknown> & {type: string}>; nextCursor: string}

const eventsOf = (releaseId: string, query = 'limit=100') =>
  owner.request<Page>({url: `/data/history/production/events/releases/${releaseId}?${query}`})

beforeAll(async () => {
  t = await startLakeUnderTest()
  owner = t.client({token: t.token, apiVersion: '2025-02-19'})
  await owner.create({_id: 'act-a', _type: 'post', title: 'Published before the release'})
  await owner.releases.create({
    releaseId: 'rAct',
    metadata: {title: 'Activity', releaseType: 'scheduled'},
  })
  await owner.createVersion({baseId: 'act-a', publishedId: 'act-a', releaseId: 'rAct'})
  await owner.createVersion({
    document: {_id: 'versions.rAct.act-new', _type: 'post', title: 'Only in the release'},
    publishedId: 'act-new',
    releaseId: 'rAct',
  })
  await owner.action({
    actionType: 'sanity.action.document.edit',
    draftId: 'versions.rAct.act-new',
    publishedId: 'act-new',
    patch: {set: {title: 'Edited in the release'}},
  })
  await owner.discardVersion({releaseId: 'rAct', publishedId: 'act-new'})
  await owner.releases.schedule({
    releaseId: 'rAct',
    publishAt: new Date(Date.now() + 3_600_000).toISOString(),
  })
  await owner.releases.unschedule({releaseId: 'rAct'})
  await owner.releases.publish({releaseId: 'rAct'})
})
afterAll(() => t.stop())

describe('release events', () => {
  it('lists what happened to the release, newest first, in the shapes the Studio reads', async () => {
    const {events, nextCursor} = await eventsOf('rAct')
    expect(events.map((event) => event.type)).toEqual([
      'publishRelease',
      'unscheduleRelease',
      'scheduleRelease',
      'discardDocumentFromRelease',
      'addDocumentToRelease',
      'addDocumentToRelease',
      'createRelease',
    ])
    // Publishing removed the versions: that is the publish, not discards.
    expect(nextCursor).toBe('')
    expect(events[4]).toMatchObject({
      documentId: 'act-new',
      documentType: 'post',
      versionId: 'versions.rAct.act-new',
      releaseName: 'rAct',
    })
    expect(events[5]).toMatchObject({
      documentId: 'act-a',
      versionId: 'versions.rAct.act-a',
      revisionId: expect.any(String),
    })
    expect(events[2]).toMatchObject({publishAt: expect.stringMatching(/Z$/)})
    expect(events[6]).toMatchObject({change: {releaseType: 'scheduled'}})
    for (const event of events) {
      expect(Date.parse(String(event.timestamp))).not.toBeNaN()
      expect(event.author).toEqual(expect.any(String))
    }
  })

  it('pages with limit and nextCursor to the same list', async () => {
    const all = (await eventsOf('rAct')).events
    const paged: Page['events'] = []
    let cursor = ''
    do {
      const page = await eventsOf('rAct', `limit=2${cursor && `&nextCursor=${cursor}`}`)
      expect(page.events.length).toBeLessThanOrEqual(2)
      paged.push(...page.events)
      cursor = page.nextCursor
    } while (cursor)
    expect(paged).toEqual(all)
  })

  it('an archive and an unarchive are one event each, not discards and adds', async () => {
    await owner.releases.create({releaseId: 'rShelf', metadata: {title: 'Shelved'}})
    await owner.createVersion({baseId: 'act-a', publishedId: 'act-a', releaseId: 'rShelf'})
    await owner.releases.archive({releaseId: 'rShelf'})
    await owner.releases.unarchive({releaseId: 'rShelf'})
    expect((await eventsOf('rShelf')).events.map((event) => event.type)).toEqual([
      'unarchiveRelease',
      'archiveRelease',
      'addDocumentToRelease',
      'createRelease',
    ])
  })

  it('refuses bad input with Sanity-shaped 4xx, and anyone without a token', async () => {
    const base = '/v2025-02-19/data/history/production/events/releases'
    const anonymous = await t.fetch(`${base}/rAct`)
    expect(anonymous.status).toBe(401)
    for (const [path, status] of [
      [`${base}/bad.id`, 400],
      [`${base}/rAct?nextCursor=drop%20table`, 400],
      [`${base}/rAct?limit=0`, 400],
      ['/v2025-02-19/data/history/other/events/releases/rAct', 404],
    ] as const) {
      const res = await t.fetch(path, {token: t.token})
      expect(res.status, path).toBe(status)
      expect(await res.json()).toMatchObject({error: {description: expect.any(String)}})
    }
    // A release the log never saw has no events.
    expect(await eventsOf('rNever')).toEqual({events: [], nextCursor: ''})
  })
})
