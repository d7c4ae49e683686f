import type {SanityClient} from '@sanity/client'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {storeOf} from '../lake.ts'
import type {Doc} from '../types.ts'
import {ReleaseScheduler} from './scheduler.ts'

// The scheduler in the content process: a scheduled release is published at its publishAt
// (never before, within 5 s), in one transaction by the owner, and heard by live listeners.
let t: LakeUnderTest
let owner: SanityClient
let scheduler: ReleaseScheduler

beforeAll(async () => {
  t = await startLakeUnderTest()
  // As the content process starts it (server/start.ts); the restart test runs that process.
  scheduler = new ReleaseScheduler(t.lake)
  await scheduler.start()
  owner = t.client({token: t.token, apiVersion: '2025-02-19'})
  await owner.create({_id: 'sched-a', _type: 'post', title: 'Before'})
})
afterAll(async () => {
  scheduler.stop()
  await t.stop()
})

/** Resolves with the release document once a commit publishes it. */
function whenPublished(releaseId: string): Promise<Doc> {
  return new Promise((resolve) => {
    const stop = t.lake.onCommit((tx) => {
      const release = tx.changes.find((c) => c.id === `_.releases.${releaseId}`)?.after
      if (release?.state === 'published') {
        stop()
        resolve(release)
      }
    })
  })
}

async function scheduledRelease(releaseId: string, title: string, inMs: number): Promise<string> {
  await owner.releases.create({releaseId, metadata: {title: releaseId, releaseType: 'scheduled'}})
  await owner.createVersion({baseId: 'sched-a', publishedId: 'sched-a', releaseId})
  await owner.action({
    actionType: 'sanity.action.document.edit',
    draftId: `versions.${releaseId}.sched-a`,
    publishedId: 'sched-a',
    patch: {set: {title}},
  })
  const publishAt = new Date(Date.now() + inMs).toISOString()
  await owner.releases.schedule({releaseId, publishAt})
  return publishAt
}

it('publishes a scheduled release at its time, not before, as the owner in one transaction; an unscheduled one stays', async () => {
  // Scheduled first, due first, then unscheduled: it must not be published.
  await scheduledRelease('rCancelled', 'Never', 1300)
  await owner.releases.unschedule({releaseId: 'rCancelled'})
  const published = whenPublished('rOnTime')
  const events = owner.listen(
    '*[_id == "sched-a"]',
    {},
    {events: ['mutation'], visibility: 'query'},
  )
  const heard = new Promise<string>((resolve) => {
    const sub = events.subscribe((event) => {
      if (event.type === 'mutation' && event.result?.title === 'On time') {
        sub.unsubscribe()
        resolve(event.transactionId)
      }
    })
  })
  const publishAt = await scheduledRelease('rOnTime', 'On time', 3000)
  const early = await t.anon.fetch('*[_id == "sched-a"][0].title')
  // A read answered before the due time sees the old title (a busy machine may answer later).
  if (Date.now() < Date.parse(publishAt)) expect(early).toBe('Before')

  const release = await published
  const publishedAt = Date.parse(String(release.publishedAt))
  expect(publishedAt).toBeGreaterThanOrEqual(Date.parse(publishAt))
  expect(publishedAt - Date.parse(publishAt)).toBeLessThan(5000)
  expect(await t.anon.fetch('*[_id == "sched-a"][0].title')).toBe('On time')
  const transactionId = await heard
  expect(release._rev).toBe(transactionId)
  const tx = storeOf(t.lake).transactionById(transactionId)
  expect(tx?.author).toBe('p-owner')
  expect(tx?.documents.map((d) => d.id).sort()).toEqual([
    '_.releases.rOnTime',
    'sched-a',
    'versions.rOnTime.sched-a',
  ])
  expect((await owner.releases.get({releaseId: 'rCancelled'}))?.state).toBe('active')
})
