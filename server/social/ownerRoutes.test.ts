import {randomBytes} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {createPost} from './testing/createPost.ts'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {InboxSink} from '../../scripts/inboxSink.ts'
import type {Lake} from '../lake/index.ts'
import {followerId, type Follower} from './followers.ts'
import {blockIdOf, blocksPath} from './ownerRoutes.ts'

// The owner's blocks over HTTP, as the Studio's follower actions send them: owner-only, bounded,
// and what a block does for followers' servers on a loopback inbox sink (no more deliveries, and
// the blocked instance's activities dropped before anything is fetched from it).

const token = randomBytes(32).toString('hex')

describe('blocking followers and instances', () => {
  let server: TestServer
  let sink: InboxSink
  let other: InboxSink
  let lake: Lake
  const follower = (base: string, name: string): Follower => ({
    _id: followerId(`${base}/users/${name}`),
    _type: 'socialFollower',
    actor: `${base}/users/${name}`,
    inbox: `${base}/users/${name}/inbox`,
    followedAt: new Date().toISOString(),
  })
  const block = (body: unknown, auth = `Bearer ${token}`) =>
    fetch(`${server.url}${blocksPath}`, {
      method: 'POST',
      headers: {authorization: auth, 'content-type': 'application/json'},
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const post = (id: string, slug: string) => createPost(id, slug, {excerpt: 'For the followers.'})
  const postUrl = (slug: string) => `${server.config.siteUrl}/blog/${slug}`

  beforeAll(async () => {
    vi.stubEnv('FEDERATION_ALLOW_PRIVATE', '1')
    vi.stubEnv('FEDERATION_SEND_PER_SECOND', '200')
    sink = await new InboxSink().listen()
    other = await new InboxSink().listen()
    server = await startTestServer({LAKE_TOKEN: token})
    lake = server.lake!
    await lake.mutate(
      [
        follower(sink.url, 'a'),
        follower(sink.url, 'b'),
        follower(sink.url, 'c'),
        follower(other.url, 'd'),
      ].map((f) => ({createOrReplace: f})),
    )
  }, 60_000)
  afterAll(async () => {
    await server.stop()
    await sink.close()
    await other.close()
    vi.unstubAllEnvs()
  })

  it('refuses anyone but the owner (401) and bad bodies (400, 413), changing nothing', async () => {
    expect((await block({target: '127.0.0.1'}, '')).status).toBe(401)
    expect((await block({target: '127.0.0.1'}, `Bearer ${'f'.repeat(64)}`)).status).toBe(401)
    expect((await block('not json')).status).toBe(400)
    expect((await block({target: 'javascript:alert(1)//x'})).status).toBe(400)
    expect((await block({target: 'not a host'})).status).toBe(400)
    expect((await block({target: 'x'.repeat(5000)})).status).toBe(413)
    const unblock = await fetch(`${server.url}${blocksPath}/socialBlock.nope`, {
      method: 'DELETE',
      headers: {authorization: `Bearer ${token}`},
    })
    expect(unblock.status).toBe(404)
    expect(await lake.query('count(*[_type == "socialBlock"])', {}, {authenticated: true})).toBe(0)
    expect(await lake.query('count(*[_type == "socialFollower"])', {}, {authenticated: true})).toBe(
      4,
    )
  })

  it('blocking one account removes it and stops its deliveries; the others still get posts', async () => {
    const res = await block({target: `${sink.url}/users/a`})
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({removedFollowers: 1})
    expect(lake.getDocument(followerId(`${sink.url}/users/a`))).toBeUndefined()
    await lake.mutate([post('after-account-block', 'after-account-block')])
    const url = postUrl('after-account-block')
    await sink.until(
      () =>
        sink.takenOf('/users/b/inbox', 'Create', url) +
          sink.takenOf('/users/c/inbox', 'Create', url) ===
        2,
    )
    await other.until(() => other.takenOf('/users/d/inbox', 'Create', url) === 1)
    expect(sink.takenOf('/users/a/inbox', 'Create', url)).toBe(0)
  })

  it('blocking an instance removes its followers, stops deliveries and drops its activities unfetched', async () => {
    const host = new URL(sink.url).host
    const res = await block({target: host})
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({_id: blockIdOf(host), removedFollowers: 2})
    await lake.mutate([post('after-host-block', 'after-host-block')])
    const url = postUrl('after-host-block')
    // The other instance's follower gets it; the queue keeps order, so the blocked ones would have.
    await other.until(() => other.takenOf('/users/d/inbox', 'Create', url) === 1)
    expect(sink.posts.filter((p) => p.objectId === url)).toEqual([])

    // An activity from the blocked instance: accepted unread (202), its key never fetched.
    const activity = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${sink.url}/users/b/follow/1`,
      type: 'Follow',
      actor: `${sink.url}/users/b`,
      object: `${server.config.siteUrl}/social/site`,
    }
    const inbox = await fetch(`${server.url}/social/inbox`, {
      method: 'POST',
      headers: {
        'content-type': 'application/activity+json',
        signature: `keyId="${sink.url}/users/b#main-key",algorithm="rsa-sha256",headers="(request-target)",signature="x"`,
      },
      body: JSON.stringify(activity),
    })
    expect(inbox.status).toBe(202)
    expect(sink.fetches).toEqual([])
    expect(lake.getDocument(followerId(`${sink.url}/users/b`))).toBeUndefined()
  })

  it('lifting a block lets the instance follow again', async () => {
    const host = new URL(sink.url).host
    const res = await fetch(`${server.url}${blocksPath}/${blockIdOf(host)}`, {
      method: 'DELETE',
      headers: {authorization: `Bearer ${token}`},
    })
    expect(res.status).toBe(204)
    expect(lake.getDocument(blockIdOf(host))).toBeUndefined()
  })
})
