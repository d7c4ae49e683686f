import {randomBytes} from 'node:crypto'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {SanityClient} from '@sanity/client'
import {afterAll, expect, it} from 'vitest'
import {localClient} from '../../test/support/localClient.ts'
import {freePort} from '../../scripts/freePort.ts'
import {InboxSink} from '../../scripts/inboxSink.ts'
import {startChildServer} from '../../test/support/childServer.ts'
import {followerId} from './followers.ts'

// Issue 39: `kill -9` during a delivery to 200 followers on a local inbox sink, then a restart:
// each inbox gets the activity exactly once, and no follower is lost. The server is killed while
// the sink holds one POST unanswered (it has the activity, the server never heard back): that
// one is sent again after the restart with the same activity id, which the receiver counts once.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-social-crash-'))
const token = randomBytes(32).toString('hex')
const cleanup: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const stop of cleanup.reverse()) await stop()
  rmSync(dataDir, {recursive: true, force: true})
})

const clientOf = (url: string): SanityClient =>
  localClient(url, {
    apiVersion: '2025-02-19',
    token,
  })

/** 150 accounts with their own inbox, and 50 on 5 instances that each name a shared inbox. */
function followersOn(sink: InboxSink) {
  return Array.from({length: 200}, (_, i) => {
    const instance = i >= 150 ? Math.floor((i - 150) / 10) : undefined
    const actor = `${sink.url}/users/${i}`
    return {
      _id: followerId(actor),
      _type: 'socialFollower',
      actor,
      inbox: `${actor}/inbox`,
      ...(instance === undefined ? {} : {sharedInbox: `${sink.url}/shared/${instance}`}),
      handle: `@reader${i}@127.0.0.1`,
      followedAt: new Date().toISOString(),
    }
  })
}

const post = (id: string, slug: string) => ({
  _id: id,
  _type: 'post',
  title: `Post ${slug}`,
  slug: {_type: 'slug', current: slug},
  date: '2026-11-28',
  excerpt: 'A post for the followers.',
})

it('a kill -9 mid-delivery to 200 followers, then a restart: each inbox takes the Create once', async () => {
  const sink = await new InboxSink().listen()
  cleanup.push(() => sink.close())
  const port = await freePort()
  const env = {
    DATA_DIR: dataDir,
    LAKE_TOKEN: token,
    PORT: String(port),
    HTTPS_PORT: 'off',
    FEDERATION_ALLOW_PRIVATE: '1',
    FEDERATION_SEND_PER_SECOND: '200',
  }
  const first = await startChildServer(env)
  cleanup.push(() => first.kill())
  const followers = followersOn(sink)
  const owner = clientOf(first.url)
  const seed = owner.transaction()
  for (const follower of followers) seed.createOrReplace(follower)
  await seed.commit()

  // The 60th POST is held unanswered, and the server killed while it waits.
  const heldAt = 60
  let held: string | undefined
  sink.answer = (p, n) => (n === heldAt ? ((held = p.inbox), 'hold') : 202)
  const crashed = sink.until(() => sink.posts.length >= heldAt)
  const postUrl = `http://localhost:${port}/blog/before-the-crash`
  await owner.create(post('crash-post', 'before-the-crash'))
  await crashed
  await first.kill()
  sink.answer = () => 202
  expect(sink.posts.length).toBe(heldAt)

  const second = await startChildServer(env)
  cleanup.push(() => second.kill())
  // 150 own inboxes and 5 shared ones: 155 inboxes, each taken once.
  const inboxes = [
    ...followers.slice(0, 150).map((f) => new URL(f.inbox).pathname),
    ...[0, 1, 2, 3, 4].map((k) => `/shared/${k}`),
  ]
  // A later post is queued after everything the crash left: once it reached every inbox, the
  // queue has sent all it will of the first.
  await clientOf(second.url).create(post('later-post', 'after-the-crash'))
  const laterUrl = `http://localhost:${port}/blog/after-the-crash`
  await sink.until(() => sink.postsOf('Create', laterUrl).size === inboxes.length)

  for (const inbox of inboxes) expect(sink.takenOf(inbox, 'Create', postUrl), inbox).toBe(1)
  const raw = sink.postsOf('Create', postUrl)
  expect([...raw.keys()].sort()).toEqual([...inboxes].sort())
  // The wire, honestly: the one POST in flight at the crash went out twice, nothing else did.
  expect([...raw].filter(([, n]) => n > 1)).toEqual([[held, 2]])
  // No follower was lost.
  const stored = await clientOf(second.url).fetch<number>('count(*[_type == "socialFollower"])')
  expect(stored).toBe(200)
}, 180_000)
