import {randomBytes} from 'node:crypto'
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Create, Note} from '@fedify/vocab'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {untilDoc} from '../../test/support/untilDoc.ts'
import {socialWebEnabled} from '../context.ts'
import {readConfig} from '../env.ts'
import {followerId} from './followers.ts'
import {commentId} from './replies.ts'
import {startHostedSite, type HostedSite} from './testing/hostedSite.ts'
import {startRemoteActor} from './testing/remoteActor.ts'
import {threadIdOf} from './threads.ts'
import {writeTokenFile} from '../util/hostedWriteToken.ts'

type Remote = Awaited<ReturnType<typeof startRemoteActor>>

/** The bound from a publish to the first delivery. */
const publishToInboxMs = 10_000

// Hosted mode (SANITY_STUDIO_PROJECT_ID, docs/hosted.md): the followers, comments and what was
// sent live in the hosted dataset ("sanity.io" here is a real lake over HTTP), the keys and the
// queue in the process's own data dir, and a publish is learnt from the Live Content API.
describe('the social web in hosted mode', () => {
  let site: HostedSite
  let remote: Remote
  let siteActor: string
  beforeAll(async () => {
    remote = await startRemoteActor()
    site = await startHostedSite()
    siteActor = `${site.url}/social/site`
  }, 60_000)
  afterAll(async () => {
    await site.stop()
    await remote.close()
  })
  /** A post published in the hosted dataset, its slug made from its title. */
  const publish = (_id: string, title: string, excerpt: string) =>
    site.hosted.owner.create({
      _id,
      _type: 'post',
      title,
      slug: {_type: 'slug', current: title.toLowerCase().replaceAll(' ', '-')},
      date: '2026-11-28',
      excerpt,
    })

  it('accepts a Follow and stores the follower in the hosted dataset', async () => {
    expect(site.social).toBeDefined()
    const follow = await remote.follow(siteActor)
    await remote.until((all) =>
      all.some((r) => r.type === 'Accept' && r.objectId === follow.id?.href),
    )
    // Accepted once stored: the follower is a private document of the hosted dataset.
    expect(site.hosted.lake.getDocument(followerId(remote.actorUrl()))).toMatchObject({
      _type: 'socialFollower',
      actor: remote.actorUrl(),
    })
    const followers = await fetch(`${siteActor}/followers`, {
      headers: {accept: 'application/activity+json'},
    })
    expect(((await followers.json()) as {totalItems: number}).totalItems).toBe(1)
  })

  it('delivers a publish in the hosted dataset to the follower within 10 s', async () => {
    const url = `${site.url}/blog/from-the-hosted-studio`
    const started = Date.now()
    await publish('hosted-post-1', 'From the hosted Studio', 'Published at sanity.io.')
    await remote.until((all) => all.some((r) => r.type === 'Create' && r.objectId === url))
    expect(Date.now() - started).toBeLessThan(publishToInboxMs)
    expect(remote.received.filter((r) => r.type === 'Create' && r.objectId === url)).toHaveLength(1)
    // What was sent is recorded there too, so a restart does not send it again.
    expect(site.hosted.lake.getDocument('socialPost.hosted-post-1')).toMatchObject({
      status: 'sent',
    })
  })

  it('sends nothing again after a restart: what was sent is in the dataset, the keys in DATA_DIR', async () => {
    const keysBefore = readFileSync(join(site.dataDir, 'social-keys.json'), 'utf8')
    await site.restart()
    expect(readFileSync(join(site.dataDir, 'social-keys.json'), 'utf8')).toBe(keysBefore)
    // A publish after the restart arrives; the queue keeps order, so the first post would have
    // arrived before it had it been sent again.
    const marker = `${site.url}/blog/after-the-restart`
    await publish('hosted-post-2', 'After the restart', 'Still followed.')
    await remote.until((all) => all.some((r) => r.type === 'Create' && r.objectId === marker))
    const first = `${site.url}/blog/from-the-hosted-studio`
    expect(remote.received.filter((r) => r.objectId === first).map((r) => r.type)).toEqual([
      'Create',
    ])
  })

  it('stores a reply as a pending comment there, and an approval in the Studio shows it', async () => {
    const noteId = new URL(`${remote.actorUrl()}/notes/hosted-1`)
    await remote.send(
      siteActor,
      new Create({
        id: new URL(`${noteId.href}#create`),
        actor: remote.actorUri(),
        object: new Note({
          id: noteId,
          attribution: remote.actorUri(),
          replyTarget: new URL(`${site.url}/blog/from-the-hosted-studio`),
          content: '<p>Read it on my phone.</p>',
        }),
      }),
    )
    const id = commentId(noteId.href)
    await untilDoc(site.hosted.lake, id, Boolean)
    expect(site.hosted.lake.getDocument(id)).toMatchObject({
      _type: 'socialComment',
      postId: 'hosted-post-1',
      status: 'pending',
      author: {actor: remote.actorUrl()},
    })
    // Pending: nothing public yet.
    expect(site.hosted.lake.getDocument(threadIdOf('hosted-post-1'))).toBeUndefined()
    // The owner approves it in the (hosted) Studio: a private change the process hears of.
    await site.hosted.owner.patch(id).set({status: 'approved'}).commit()
    const thread = threadIdOf('hosted-post-1')
    await untilDoc(site.hosted.lake, thread, Boolean)
    expect(site.hosted.lake.getDocument(thread)).toMatchObject({
      _type: 'socialThread',
      comments: [expect.objectContaining({content: '<p>Read it on my phone.</p>'})],
    })
  })

  it('sends an edit there as Update and a delete as Delete', async () => {
    const url = `${site.url}/blog/from-the-hosted-studio`
    await site.hosted.owner
      .patch('hosted-post-1')
      .set({title: 'From the hosted Studio, again'})
      .commit()
    await remote.until((all) => all.some((r) => r.type === 'Update' && r.objectId === url))
    await site.hosted.owner.delete('hosted-post-1')
    await remote.until((all) => all.some((r) => r.type === 'Delete' && r.objectId === url))
    expect(remote.received.filter((r) => r.objectId === url).map((r) => r.type)).toEqual([
      'Create',
      'Update',
      'Delete',
    ])
  })

  it('blocks an instance with the write token as the owner’s bearer (the Studio’s session is sanity.io’s)', async () => {
    const blocks = `${site.url}/api/social/blocks`
    const target = new URL(remote.origin).host
    const post = (token: string) =>
      fetch(blocks, {
        method: 'POST',
        headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
        body: JSON.stringify({target}),
      })
    expect((await post(randomBytes(32).toString('hex'))).status).toBe(401)
    expect(site.hosted.lake.getDocument(followerId(remote.actorUrl()))).toBeDefined()
    const blocked = await post(site.hosted.token)
    expect(blocked.status).toBe(201)
    const {_id} = (await blocked.json()) as {_id: string}
    expect(site.hosted.lake.getDocument(_id)).toMatchObject({_type: 'socialBlock', target})
    expect(site.hosted.lake.getDocument(followerId(remote.actorUrl()))).toBeUndefined()
  })
})

describe('hosted mode without a write token', () => {
  it('stays off the social web and says why in one line', async () => {
    const info = vi.spyOn(console, 'info')
    const site = await startHostedSite({writeToken: false})
    try {
      expect(site.social).toBeUndefined()
      expect(info).toHaveBeenCalledWith(
        expect.stringMatching(/^\[social\] not on the social web: no SANITY_API_WRITE_TOKEN/),
      )
      const webfinger = await fetch(
        `${site.url}/.well-known/webfinger?resource=acct:writer@${new URL(site.url).host}`,
      )
      expect(webfinger.status).toBe(404)
    } finally {
      info.mockRestore()
      await site.stop()
    }
  })
})

describe('whether the pages link the account', () => {
  it('says on in hosted mode with a write token, off without', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'social-links-'))
    const config = (env: Record<string, string>) =>
      readConfig({SANITY_STUDIO_PROJECT_ID: 'hostedproj', DATA_DIR: dataDir, ...env})
    expect(socialWebEnabled({lake: undefined, config: config({})})).toBe(false)
    const token = randomBytes(32).toString('hex')
    expect(
      socialWebEnabled({lake: undefined, config: config({SANITY_API_WRITE_TOKEN: token})}),
    ).toBe(true)
    rmSync(dataDir, {recursive: true})
  })
})

describe('the write token from the data dir', () => {
  it('is used from a 0600 file, and refused when others can read it', async () => {
    const info = vi.spyOn(console, 'info')
    try {
      for (const [mode, on] of [
        [0o600, true],
        [0o644, false],
      ] as const) {
        info.mockClear()
        const site = await startHostedSite({
          writeToken: false,
          prepareDataDir: (dir, token) => {
            writeFileSync(join(dir, writeTokenFile), `${token}\n`)
            chmodSync(join(dir, writeTokenFile), mode)
          },
        })
        try {
          expect(site.social !== undefined).toBe(on)
          if (!on)
            expect(info).toHaveBeenCalledWith(
              expect.stringMatching(/readable by others.*chmod 600/),
            )
        } finally {
          await site.stop()
        }
      }
    } finally {
      info.mockRestore()
    }
  })
})
