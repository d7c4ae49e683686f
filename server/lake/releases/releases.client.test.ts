import type {SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {anyTag, draftsTag} from '../events/syncTags.ts'

// Content Releases through the real @sanity/client (its `releases` methods and version actions),
// as the Studio uses them: each action's happy path, its refusal (Sanity's error shape, nothing
// changed) and dryRun; the perspective stacks.
let t: LakeUnderTest
let owner: SanityClient
let anon: SanityClient

const releasesApi = '2025-02-19'

beforeAll(async () => {
  t = await startLakeUnderTest()
  owner = t.client({token: t.token, apiVersion: releasesApi})
  anon = t.client({apiVersion: releasesApi})
  await owner.create({_id: 'rel-a', _type: 'post', title: 'A published'})
  await owner.create({_id: 'rel-b', _type: 'post', title: 'B published'})
})
afterAll(() => t.stop())

const raw = (id: string) => owner.getDocument(id)

/** What a refused call answered: its status and Sanity's error body. */
async function refusal(call: Promise<unknown>): Promise<{status: number; type: string}> {
  try {
    await call
  } catch (error) {
    const e = error as {statusCode: number; response: {body: {error: {type: string}}}}
    return {status: e.statusCode, type: e.response.body.error.type}
  }
  throw new Error('the call succeeded')
}

/** A new release with a version of `rel-a` titled `title`. */
async function releaseWith(releaseId: string, title: string): Promise<void> {
  await owner.releases.create({releaseId, metadata: {title: releaseId}})
  await owner.createVersion({baseId: 'rel-a', publishedId: 'rel-a', releaseId})
  await owner.action({
    actionType: 'sanity.action.document.edit',
    draftId: `versions.${releaseId}.rel-a`,
    publishedId: 'rel-a',
    patch: {set: {title}},
  })
}

describe('release create and edit', () => {
  it('create makes an active system.release; dryRun and a second create change nothing', async () => {
    expect(
      await owner.releases.create({releaseId: 'rDry', metadata: {title: 'T'}}, {dryRun: true}),
    ).toMatchObject({transactionId: expect.any(String)})
    expect(await raw('_.releases.rDry')).toBeUndefined()

    await owner.releases.create({
      releaseId: 'rOne',
      metadata: {
        title: 'Spring',
        releaseType: 'scheduled',
        intendedPublishAt: '2031-01-01T08:00:00Z',
      },
    })
    expect(await owner.releases.get({releaseId: 'rOne'})).toMatchObject({
      _id: '_.releases.rOne',
      _type: 'system.release',
      name: 'rOne',
      state: 'active',
      metadata: {title: 'Spring', releaseType: 'scheduled'},
    })
    expect(await refusal(owner.releases.create({releaseId: 'rOne'}))).toEqual({
      status: 409,
      type: 'documentAlreadyExistsError',
    })
  })

  it('refuses a malformed release id and a bad releaseType with a 400', async () => {
    expect(await refusal(owner.releases.create({releaseId: 'bad.id'}))).toMatchObject({status: 400})
    expect(
      await refusal(
        owner.releases.create({
          releaseId: 'rBadType',
          metadata: {releaseType: 'someday' as 'asap'},
        }),
      ),
    ).toMatchObject({status: 400})
    expect(await raw('_.releases.rBadType')).toBeUndefined()
  })

  it('edit patches metadata only; actions on a missing release are 404', async () => {
    await owner.releases.edit({releaseId: 'rOne', patch: {set: {'metadata.title': 'Spring 2031'}}})
    expect((await owner.releases.get({releaseId: 'rOne'}))?.metadata.title).toBe('Spring 2031')
    await owner.releases.edit(
      {releaseId: 'rOne', patch: {set: {'metadata.title': 'dry'}}},
      {dryRun: true},
    )
    expect((await owner.releases.get({releaseId: 'rOne'}))?.metadata.title).toBe('Spring 2031')
    expect(
      await refusal(owner.releases.edit({releaseId: 'rOne', patch: {set: {state: 'published'}}})),
    ).toMatchObject({status: 400})
    expect(await refusal(owner.releases.publish({releaseId: 'rNope'}))).toEqual({
      status: 404,
      type: 'releaseNotFoundError',
    })
  })

  it('release documents are not written by /data/mutate, and anonymous readers never see them', async () => {
    expect(
      await refusal(
        owner.create({_id: '_.releases.rForged', _type: 'system.release', state: 'active'}),
      ),
    ).toMatchObject({status: 409})
    expect(await anon.fetch('*[_type == "system.release"]._id')).toEqual([])
    expect(await anon.fetch('*[_id in path("_.releases.*")]', {}, {perspective: 'raw'})).toEqual([])
  })
})

describe('versions', () => {
  it('version.create copies a base document into the release; refused from a missing base, into a missing release, or twice', async () => {
    await owner.releases.create({releaseId: 'rVer', metadata: {title: 'Versions'}})
    await owner.createVersion(
      {baseId: 'rel-a', publishedId: 'rel-a', releaseId: 'rVer'},
      {dryRun: true},
    )
    expect(await raw('versions.rVer.rel-a')).toBeUndefined()
    await owner.createVersion({baseId: 'rel-a', publishedId: 'rel-a', releaseId: 'rVer'})
    expect(await raw('versions.rVer.rel-a')).toMatchObject({_type: 'post', title: 'A published'})
    expect(
      await refusal(
        owner.createVersion({baseId: 'ghost', publishedId: 'ghost', releaseId: 'rVer'}),
      ),
    ).toEqual({status: 409, type: 'documentNotFoundError'})
    expect(
      await refusal(
        owner.createVersion({baseId: 'rel-a', publishedId: 'rel-a', releaseId: 'rMissing'}),
      ),
    ).toEqual({status: 404, type: 'releaseNotFoundError'})
    expect(
      await refusal(
        owner.createVersion({baseId: 'rel-a', publishedId: 'rel-a', releaseId: 'rVer'}),
      ),
    ).toEqual({status: 409, type: 'documentAlreadyExistsError'})
    // A new document: a version with content and no published document yet.
    await owner.createVersion({
      document: {_id: 'versions.rVer.rel-new', _type: 'post', title: 'New in release'},
      publishedId: 'rel-new',
      releaseId: 'rVer',
    })
    expect(await raw('versions.rVer.rel-new')).toMatchObject({title: 'New in release'})
  })

  it('version.replace, discard and unpublish: happy path, refusal, dryRun', async () => {
    await owner.replaceVersion({
      document: {_id: 'versions.rVer.rel-new', _type: 'post', title: 'Replaced'},
    })
    expect((await raw('versions.rVer.rel-new'))?.title).toBe('Replaced')
    expect(
      await refusal(
        owner.replaceVersion({document: {_id: 'versions.rVer.rel-none', _type: 'post'}}),
      ),
    ).toEqual({status: 409, type: 'documentNotFoundError'})

    await owner.unpublishVersion({releaseId: 'rVer', publishedId: 'rel-b'}, {dryRun: true})
    expect(await raw('versions.rVer.rel-b')).toBeUndefined()
    await owner.unpublishVersion({releaseId: 'rVer', publishedId: 'rel-b'})
    expect(await raw('versions.rVer.rel-b')).toMatchObject({_system: {delete: true}})
    expect(
      await refusal(owner.unpublishVersion({releaseId: 'rVer', publishedId: 'rel-never'})),
    ).toEqual({status: 409, type: 'documentNotFoundError'})

    await owner.discardVersion({releaseId: 'rVer', publishedId: 'rel-b'}, false, {dryRun: true})
    expect(await raw('versions.rVer.rel-b')).toBeDefined()
    await owner.discardVersion({releaseId: 'rVer', publishedId: 'rel-b'})
    expect(await raw('versions.rVer.rel-b')).toBeUndefined()
    expect(await refusal(owner.discardVersion({releaseId: 'rVer', publishedId: 'rel-b'}))).toEqual({
      status: 409,
      type: 'documentNotFoundError',
    })
  })
})

describe('a new document in a release', () => {
  const create = (releaseId: string, publishedId = 'rel-born', id = publishedId) =>
    owner.action({
      actionType: 'sanity.action.document.create',
      publishedId,
      ifExists: 'fail',
      attributes: {_id: `versions.${releaseId}.${id}`, _type: 'post', title: 'Born in a release'},
    })

  it('document.create with a version id makes the document in the release only, as the Studio does in its perspective', async () => {
    await owner.releases.create({releaseId: 'rBorn', metadata: {title: 'Born'}})
    await create('rBorn', 'rel-born')
    expect(await raw('versions.rBorn.rel-born')).toMatchObject({title: 'Born in a release'})
    expect(await raw('rel-born')).toBeUndefined()
    expect(await raw('drafts.rel-born')).toBeUndefined()
  })

  it('is refused into a missing or scheduled release, or under another published id', async () => {
    expect(await refusal(create('rNowhere'))).toEqual({
      status: 404,
      type: 'releaseNotFoundError',
    })
    expect(await refusal(create('rBorn', 'rel-x', 'rel-y'))).toMatchObject({status: 400})
    await owner.releases.create({releaseId: 'rBornLate', metadata: {title: 'Late'}})
    await owner.releases.schedule({
      releaseId: 'rBornLate',
      publishAt: new Date(Date.now() + 3_600_000).toISOString(),
    })
    expect(await refusal(create('rBornLate'))).toEqual({status: 409, type: 'releaseLockedError'})
    expect(await raw('versions.rNowhere.rel-born')).toBeUndefined()
    expect(await raw('versions.rBornLate.rel-born')).toBeUndefined()
    expect(await raw('versions.rBorn.rel-y')).toBeUndefined()
  })
})

describe('perspectives', () => {
  const titles = '*[_id in ["rel-a", "rel-new"]] | order(_id asc) {_id, title, _originalId}'

  it('a release id and a stack show the release over drafts over published, to the owner', async () => {
    await owner.createIfNotExists({_id: 'drafts.rel-a', _type: 'post', title: 'A draft'})
    await owner.action({
      actionType: 'sanity.action.document.edit',
      draftId: 'versions.rVer.rel-a',
      publishedId: 'rel-a',
      patch: {set: {title: 'A in release'}},
    })
    expect(await owner.fetch(titles, {}, {perspective: ['rVer']})).toEqual([
      {_id: 'rel-a', title: 'A in release', _originalId: 'versions.rVer.rel-a'},
      {_id: 'rel-new', title: 'Replaced', _originalId: 'versions.rVer.rel-new'},
    ])
    expect(await owner.fetch(titles, {}, {perspective: ['drafts']})).toEqual([
      {_id: 'rel-a', title: 'A draft', _originalId: 'drafts.rel-a'},
    ])
    expect(await owner.fetch(titles, {}, {perspective: ['drafts', 'rVer']})).toEqual([
      {_id: 'rel-a', title: 'A draft', _originalId: 'drafts.rel-a'},
      {_id: 'rel-new', title: 'Replaced', _originalId: 'versions.rVer.rel-new'},
    ])
    expect(await owner.fetch(titles, {}, {perspective: 'published'})).toEqual([
      {_id: 'rel-a', title: 'A published', _originalId: null},
    ])
    // Over HTTP as the Studio sends it.
    const res = await t.fetch(
      `/v${releasesApi}/data/query/production?query=${encodeURIComponent('*[_id == "rel-a"][0].title')}&perspective=rVer,drafts`,
      {token: t.token},
    )
    expect((await res.json()).result).toBe('A in release')
  })

  it('raw shows versions to the owner; an anonymous reader with a release perspective sees published content only', async () => {
    expect(
      await owner.fetch(
        '*[sanity::partOfRelease("rVer")]._id | order(@ asc)',
        {},
        {perspective: 'raw'},
      ),
    ).toEqual(['versions.rVer.rel-a', 'versions.rVer.rel-new'])
    expect(await anon.fetch(titles, {}, {perspective: ['rVer', 'drafts']})).toEqual([
      {_id: 'rel-a', title: 'A published', _originalId: 'rel-a'},
    ])
    expect(await anon.fetch('*[_id match "versions.**"]', {}, {perspective: 'raw'})).toEqual([])
  })

  it('a malformed stack is a 400', async () => {
    for (const perspective of ['raw,drafts', 'rA,rA', 'r.x', 'published,rA'])
      expect(
        (await t.fetch(`/v${releasesApi}/data/query/production?query=1&perspective=${perspective}`))
          .status,
      ).toBe(400)
  })
})

describe('live events', () => {
  it('a release perspective answer carries the drafts tag; a version commit and a release publish fire it', async () => {
    const answer = await owner.fetch(
      'count(*)',
      {},
      {filterResponse: false, perspective: ['rVer', 'drafts']},
    )
    expect(answer.syncTags).toEqual([anyTag, draftsTag])
    const anonymous = await anon.fetch(
      'count(*)',
      {},
      {filterResponse: false, perspective: ['rVer']},
    )
    expect(anonymous.syncTags).toEqual([anyTag])

    const tags: string[][] = []
    const arrived = new Promise<void>((resolve) => {
      const subscription = owner.live
        .events({includeDrafts: true, tag: 'test'})
        .subscribe((event) => {
          if (event.type === 'welcome') {
            void owner.action({
              actionType: 'sanity.action.document.edit',
              draftId: 'versions.rVer.rel-a',
              publishedId: 'rel-a',
              patch: {set: {subtitle: 'live'}},
            })
          }
          if (event.type === 'message') {
            tags.push(event.tags)
            subscription.unsubscribe()
            resolve()
          }
        })
    })
    await arrived
    expect(tags).toEqual([[draftsTag]])
  })
})

describe('schedule, unschedule, publish', () => {
  it('a scheduled release is locked: edits of it and of its documents are refused and change nothing', async () => {
    await releaseWith('rLock', 'A locked')
    const publishAt = new Date(Date.now() + 3_600_000).toISOString()
    await owner.releases.schedule({releaseId: 'rLock', publishAt}, {dryRun: true})
    expect((await owner.releases.get({releaseId: 'rLock'}))?.state).toBe('active')
    await owner.releases.schedule({releaseId: 'rLock', publishAt})
    expect(await owner.releases.get({releaseId: 'rLock'})).toMatchObject({
      state: 'scheduled',
      publishAt,
      metadata: {releaseType: 'scheduled', intendedPublishAt: publishAt},
    })
    const before = await raw('versions.rLock.rel-a')

    expect(
      await refusal(
        owner.action({
          actionType: 'sanity.action.document.edit',
          draftId: 'versions.rLock.rel-a',
          publishedId: 'rel-a',
          patch: {set: {title: 'sneaked in'}},
        }),
      ),
    ).toEqual({status: 409, type: 'releaseLockedError'})
    expect(await refusal(owner.discardVersion({releaseId: 'rLock', publishedId: 'rel-a'}))).toEqual(
      {
        status: 409,
        type: 'releaseLockedError',
      },
    )
    // Its metadata stays editable (the Studio saves the title from the release's page).
    await owner.releases.edit({releaseId: 'rLock', patch: {set: {'metadata.title': 'Locked'}}})
    expect(
      await refusal(owner.patch('versions.rLock.rel-a').set({title: 'by mutate'}).commit()),
    ).toMatchObject({status: 409})
    expect(await refusal(owner.releases.schedule({releaseId: 'rLock', publishAt}))).toEqual({
      status: 409,
      type: 'releaseLockedError',
    })
    expect(await raw('versions.rLock.rel-a')).toEqual(before)
    expect((await owner.releases.get({releaseId: 'rLock'}))?.metadata.title).toBe('Locked')

    await owner.releases.unschedule({releaseId: 'rLock'})
    const unscheduled = await owner.releases.get({releaseId: 'rLock'})
    expect(unscheduled?.state).toBe('active')
    expect(unscheduled).not.toHaveProperty('publishAt')
    expect(await refusal(owner.releases.unschedule({releaseId: 'rLock'}))).toEqual({
      status: 409,
      type: 'releaseStateError',
    })
    expect(
      await refusal(owner.releases.schedule({releaseId: 'rLock', publishAt: 'next tuesday'})),
    ).toMatchObject({status: 400})
  })

  it('publish is one transaction over all the release documents; dryRun publishes nothing', async () => {
    await owner.releases.create({releaseId: 'rPub', metadata: {title: 'Publish'}})
    await owner.createVersion({baseId: 'rel-a', publishedId: 'rel-a', releaseId: 'rPub'})
    await owner.replaceVersion({
      document: {_id: 'versions.rPub.rel-a', _type: 'post', title: 'A from rPub'},
    })
    await owner.createVersion({
      document: {_id: 'versions.rPub.rel-c', _type: 'post', title: 'C from rPub'},
      publishedId: 'rel-c',
      releaseId: 'rPub',
    })
    await owner.create({_id: 'rel-gone', _type: 'post', title: 'to unpublish'})
    await owner.unpublishVersion({releaseId: 'rPub', publishedId: 'rel-gone'})

    await owner.releases.publish({releaseId: 'rPub'}, {dryRun: true})
    expect(await anon.fetch('*[_id == "rel-c"]')).toEqual([])

    const {transactionId} = await owner.releases.publish({releaseId: 'rPub'})
    const published = await anon.fetch(
      '*[_id in ["rel-a", "rel-c", "rel-gone"]] | order(_id asc) {_id, title, _rev}',
    )
    expect(published).toEqual([
      {_id: 'rel-a', title: 'A from rPub', _rev: transactionId},
      {_id: 'rel-c', title: 'C from rPub', _rev: transactionId},
    ])
    expect(await owner.fetch('*[sanity::partOfRelease("rPub")]', {}, {perspective: 'raw'})).toEqual(
      [],
    )
    expect(await owner.releases.get({releaseId: 'rPub'})).toMatchObject({
      state: 'published',
      _rev: transactionId,
      publishedAt: expect.any(String),
      finalDocumentStates: expect.arrayContaining([
        {id: 'versions.rPub.rel-a'},
        {id: 'versions.rPub.rel-c'},
        {id: 'versions.rPub.rel-gone'},
      ]),
    })
    expect(await refusal(owner.releases.publish({releaseId: 'rPub'}))).toEqual({
      status: 409,
      type: 'releaseStateError',
    })
  })

  it('a publish refused half-way changes nothing (the whole transaction is dropped)', async () => {
    await releaseWith('rHalf', 'A half')
    const before = await anon.fetch('*[_id == "rel-a"][0].title')
    // The second action is refused, so the publish before it in the same request is not kept.
    expect(
      await refusal(
        owner.action([
          {actionType: 'sanity.action.release.publish', releaseId: 'rHalf'},
          {actionType: 'sanity.action.release.publish', releaseId: 'rHalf'},
        ]),
      ),
    ).toEqual({status: 409, type: 'releaseStateError'})
    expect(await anon.fetch('*[_id == "rel-a"][0].title')).toBe(before)
    expect((await owner.releases.get({releaseId: 'rHalf'}))?.state).toBe('active')
    expect(await raw('versions.rHalf.rel-a')).toMatchObject({title: 'A half'})
  })

  it('a schedule whose time has passed publishes at once', async () => {
    await releaseWith('rPast', 'A from the past')
    await owner.releases.schedule({
      releaseId: 'rPast',
      publishAt: new Date(Date.now() - 60_000).toISOString(),
    })
    expect((await owner.releases.get({releaseId: 'rPast'}))?.state).toBe('published')
    expect(await anon.fetch('*[_id == "rel-a"][0].title')).toBe('A from the past')
  })
})

describe('archive, unarchive, delete', () => {
  it('archive removes the versions; an archived release cannot be published; unarchive brings them back', async () => {
    await releaseWith('rArch', 'A archived')
    expect(await refusal(owner.releases.delete({releaseId: 'rArch'}))).toEqual({
      status: 409,
      type: 'releaseStateError',
    })
    await owner.releases.archive({releaseId: 'rArch'}, {dryRun: true})
    expect((await owner.releases.get({releaseId: 'rArch'}))?.state).toBe('active')
    await owner.releases.archive({releaseId: 'rArch'})
    expect(await owner.releases.get({releaseId: 'rArch'})).toMatchObject({
      state: 'archived',
      finalDocumentStates: [{id: 'versions.rArch.rel-a'}],
    })
    expect(await raw('versions.rArch.rel-a')).toBeUndefined()
    const live = await anon.fetch('*[_id == "rel-a"][0].title')
    expect(await refusal(owner.releases.publish({releaseId: 'rArch'}))).toEqual({
      status: 409,
      type: 'releaseStateError',
    })
    expect(await anon.fetch('*[_id == "rel-a"][0].title')).toBe(live)
    expect(await refusal(owner.releases.archive({releaseId: 'rArch'}))).toMatchObject({status: 409})

    await owner.releases.unarchive({releaseId: 'rArch'})
    expect((await owner.releases.get({releaseId: 'rArch'}))?.state).toBe('active')
    expect(await raw('versions.rArch.rel-a')).toMatchObject({title: 'A archived'})
    expect(await refusal(owner.releases.unarchive({releaseId: 'rArch'}))).toMatchObject({
      status: 409,
    })

    await owner.releases.archive({releaseId: 'rArch'})
    await owner.releases.delete({releaseId: 'rArch'}, {dryRun: true})
    expect(await owner.releases.get({releaseId: 'rArch'})).toBeDefined()
    await owner.releases.delete({releaseId: 'rArch'})
    expect(await owner.releases.get({releaseId: 'rArch'})).toBeUndefined()
  })
})

describe('limits', () => {
  it('open releases are bounded: one over the limit is refused as Sanity does, and the Studio can read the limit', async () => {
    const limits = await t.fetch('/vX/projects/scriptorium/new-content-release-allowed', {
      token: t.token,
    })
    const {data} = await limits.json()
    expect(data).toMatchObject({datasetReleaseLimit: 100, orgActiveReleaseLimit: null})
    expect((await t.fetch('/vX/projects/scriptorium/new-content-release-allowed')).status).toBe(401)
    expect(await (await t.fetch('/v2025-02-19/features')).json()).toEqual([
      'contentReleases',
      'singleDocRelease',
    ])

    const room = data.datasetReleaseLimit - data.datasetActiveReleaseCount
    await owner.action(
      Array.from({length: room}, (_, i) => ({
        actionType: 'sanity.action.release.create',
        releaseId: `rFlood${i}`,
        metadata: {title: `Flood ${i}`},
      })),
    )
    const refused = await owner.releases.create({releaseId: 'rOneTooMany'}).catch((e) => e)
    expect(refused).toMatchObject({
      statusCode: 409,
      details: {type: 'releaseLimitExceededError', limit: 100},
    })
    expect(await raw('_.releases.rOneTooMany')).toBeUndefined()
    await owner.releases.archive({releaseId: 'rFlood0'})
    await owner.releases.create({releaseId: 'rOneTooMany'})
  })
})
