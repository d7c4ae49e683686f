import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {createPost} from './testing/createPost.ts'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {InboxSink} from '../../scripts/inboxSink.ts'
import type {Lake} from '../lake/index.ts'
import {isRecord} from '../util/isRecord.ts'
import {followerId, type Follower} from './followers.ts'
import {untilDoc} from '../../test/support/untilDoc.ts'

// Delivery as followers' servers see it, on a loopback inbox sink: the bounded send rate, a dead
// inbox retried with backoff then given up (and marked on its followers for the Studio), and the
// per-post "Share to the social web" switch.

const rate = 10
const live = 12

describe('delivering to followers', () => {
  let server: TestServer
  let sink: InboxSink
  let lake: Lake
  const actor = (name: string) => `${sink.url}/users/${name}`
  const postUrl = (slug: string) => `${server.config.siteUrl}/blog/${slug}`
  const liveInboxes = () => Array.from({length: live}, (_, i) => `/users/r${i}/inbox`)

  beforeAll(async () => {
    vi.stubEnv('FEDERATION_ALLOW_PRIVATE', '1')
    vi.stubEnv('FEDERATION_SEND_PER_SECOND', String(rate))
    vi.stubEnv('FEDERATION_SEND_TRIES', '3')
    vi.stubEnv('FEDERATION_RETRY_SECONDS', '0.05')
    sink = await new InboxSink().listen()
    // A dead server (500 to everything) and one that is gone for good (410).
    sink.answer = (p) =>
      p.inbox.startsWith('/users/dead') ? 500 : p.inbox.startsWith('/users/gone') ? 410 : 202
    server = await startTestServer()
    lake = server.lake!
    const follower = (name: string): Follower => ({
      _id: followerId(actor(name)),
      _type: 'socialFollower',
      actor: actor(name),
      inbox: `${actor(name)}/inbox`,
      followedAt: new Date().toISOString(),
    })
    const names = [...Array.from({length: live}, (_, i) => `r${i}`), 'dead', 'gone']
    await lake.mutate(names.map((name) => ({createOrReplace: follower(name)})))
  }, 60_000)
  afterAll(async () => {
    await server.stop()
    await sink.close()
    vi.unstubAllEnvs()
  })

  const post = (id: string, slug: string, socialWeb?: boolean) =>
    createPost(id, slug, {
      excerpt: 'For the followers.',
      ...(socialWeb === undefined ? {} : {socialWeb}),
    })

  it('sends at most FEDERATION_SEND_PER_SECOND deliveries a second', async () => {
    await lake.mutate([post('rate-post', 'paced')])
    const url = postUrl('paced')
    await sink.until(() => liveInboxes().every((inbox) => sink.takenOf(inbox, 'Create', url) === 1))
    const times = sink.posts.filter((p) => p.objectId === url).map((p) => p.at)
    // n deliveries at `rate` a second are sent over at least (n - 1) gaps of 1/rate s. They are
    // timed where they arrive, so the first one's slower trip (a new connection, a busy machine)
    // may take up to one gap off the span: at least (n - 2) gaps.
    const n = times.length
    expect(n).toBeGreaterThanOrEqual(live)
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(((n - 2) * 1000) / rate)
  })

  it('retries a dead inbox with backoff, then gives up and marks its follower', async () => {
    const url = postUrl('paced')
    const deadId = followerId(actor('dead'))
    await untilDoc(lake, deadId, (doc) => isRecord(doc) && typeof doc.lastError === 'string')
    // Three tries (Fedify may knock twice a try: an RFC 9421 signature, then draft-cavage),
    // with a growing delay between them (50 ms, then 100 ms, each with up to 100% jitter).
    const tries = sink.posts.filter((p) => p.inbox === '/users/dead/inbox').map((p) => p.at)
    expect(tries.length).toBeGreaterThanOrEqual(3)
    expect(tries.length).toBeLessThanOrEqual(6)
    expect(Math.max(...tries) - Math.min(...tries)).toBeGreaterThanOrEqual(150)
    expect(lake.getDocument(deadId)).toMatchObject({
      lastError: expect.stringMatching(/^3 tries: .*500/),
    })
    // A 410 is given up at once.
    const goneId = followerId(actor('gone'))
    await untilDoc(lake, goneId, (doc) => isRecord(doc) && typeof doc.lastError === 'string')
    expect(sink.postsOf('Create', url).get('/users/gone/inbox')).toBeLessThanOrEqual(2)
    expect(lake.getDocument(goneId)).toMatchObject({lastError: 'HTTP 410'})
    // A live follower carries no error.
    expect(lake.getDocument(followerId(actor('r0')))).not.toHaveProperty('lastError')
  })

  it('honours "Share to the social web": off sends nothing, turned off sends Delete', async () => {
    await lake.mutate([post('private-post', 'not-shared', false), post('marker', 'marker')])
    const marker = postUrl('marker')
    // The queue keeps order: once the later post reached every follower, the first would have.
    await sink.until(() => liveInboxes().every((i) => sink.takenOf(i, 'Create', marker) === 1))
    expect(sink.posts.filter((p) => p.objectId === postUrl('not-shared'))).toEqual([])

    await lake.mutate([{patch: {id: 'marker', set: {socialWeb: false}}}])
    await sink.until(() => liveInboxes().every((i) => sink.takenOf(i, 'Delete', marker) === 1))
    expect(sink.postsOf('Update', marker).size).toBe(0)
    // The first post's delivery to the dead inbox was given up on: it was not tried again.
    expect(sink.postsOf('Create', postUrl('paced')).get('/users/dead/inbox')).toBeLessThanOrEqual(6)
  })
})
