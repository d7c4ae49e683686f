import {randomBytes} from 'node:crypto'
import {lakeContent} from './socialContent.ts'
import {Create, Follow, Like, Note, type Actor} from '@fedify/vocab'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {localClient} from '../../test/support/localClient.ts'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {followerId} from './followers.ts'
import {reactionCounts} from './reactions.ts'
import {commentId} from './replies.ts'
import {threadIdOf} from './threads.ts'
import {startRemoteActor} from './testing/remoteActor.ts'
import {siteSender} from './testing/siteSender.ts'
import {startWireTap} from './testing/wireTap.ts'
import {untilDoc} from '../../test/support/untilDoc.ts'

/** The id of an activity's object, embedded or referenced. */
function objectIdOf(activity: {object?: unknown}): string | undefined {
  const object = activity.object
  if (typeof object === 'string') return object
  if (typeof object === 'object' && object !== null && 'id' in object)
    return typeof object.id === 'string' ? object.id : undefined
  return undefined
}

const post = (id: string, slug: string, title: string) => ({
  _id: id,
  _type: 'post',
  title,
  slug: {_type: 'slug', current: slug},
  date: '2026-11-27',
  category: 'Writing',
  excerpt: `${title}, in short.`,
})

/**
 * Two whole instances of this server on loopback, Fedify on both sides, real signatures: B's
 * site actor follows A's, A's posts reach B's inbox (seen on the wire by a tap in front of B),
 * B's reply becomes a comment on A that the owner approves, and A's blocks stop delivery to B.
 * B follows and replies through its own key file with Fedify's API (siteSender.ts): the product
 * has no "follow" or "reply" button.
 */
describe('two instances of the site federating', () => {
  const token = randomBytes(32).toString('hex')
  let a: TestServer
  let b: TestServer
  let tapB: Awaited<ReturnType<typeof startWireTap>>
  let fromB: Awaited<ReturnType<typeof siteSender>>
  let aActor: Actor
  let bActor: string

  beforeAll(async () => {
    vi.stubEnv('FEDERATION_ALLOW_PRIVATE', '1')
    tapB = await startWireTap()
    // B's SITE_URL is the tap's address, so every delivery to B goes through it.
    b = await startTestServer({SEED: '0', SITE_URL: tapB.url})
    tapB.relayTo(b.url)
    a = await startTestServer({SEED: '0', LAKE_TOKEN: token})
    fromB = await siteSender({siteUrl: tapB.url, dataDir: b.dataDir})
    bActor = fromB.actorUri().href
    aActor = await fromB.lookup(`${a.config.siteUrl}/social/site`)
    // Two whole servers on a loaded machine (two cores, many tests) take a while to start.
  }, 120_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await tapB?.close()
    vi.unstubAllEnvs()
  })

  const postUrl = (slug: string) => `${a.config.siteUrl}/blog/${slug}`
  /** What B's inbox accepted of `type` about `url`. */
  const atB = (type: string, url: string) =>
    tapB.delivered().filter((activity) => activity.type === type && objectIdOf(activity) === url)

  it("B follows A: A accepts, stores B as a follower, and B's inbox gets the Accept", async () => {
    const follow = new Follow({
      id: new URL(`${bActor}#follow-${crypto.randomUUID()}`),
      actor: new URL(bActor),
      object: aActor.id,
    })
    await fromB.send(aActor, follow)
    await tapB.until(() =>
      tapB
        .delivered()
        .some((x) => x.type === 'Accept' && JSON.stringify(x.object).includes(follow.id!.href)),
    )
    expect(a.lake!.getDocument(followerId(bActor))).toMatchObject({
      _type: 'socialFollower',
      actor: bActor,
      inbox: `${tapB.url}/social/site/inbox`,
    })
  })

  it('a publish on A arrives in B once, an edit as Update, an unpublish as Delete', async () => {
    const slug = 'news-from-the-ridge'
    await a.lake!.mutate([{create: post('two-1', slug, 'News from the ridge')}])
    await tapB.until(() => atB('Create', postUrl(slug)).length > 0)
    expect(atB('Create', postUrl(slug))[0].object).toMatchObject({
      type: 'Article',
      name: 'News from the ridge',
      url: postUrl(slug),
    })

    await a.lake!.mutate([{patch: {id: 'two-1', set: {title: 'News from the high ridge'}}}])
    await tapB.until(() => atB('Update', postUrl(slug)).length > 0)
    expect(atB('Update', postUrl(slug))[0].object).toMatchObject({
      name: 'News from the high ridge',
    })

    await a.lake!.mutate([{delete: {id: 'two-1'}}])
    await tapB.until(() => atB('Delete', postUrl(slug)).length > 0)
    // A's queue sends in order: with the Delete in, every earlier delivery was made.
    expect(atB('Create', postUrl(slug))).toHaveLength(1)
    expect(atB('Update', postUrl(slug))).toHaveLength(1)
    expect(atB('Delete', postUrl(slug))).toHaveLength(1)
  }, 120_000)

  it("B's reply is a pending comment on A, and shows on A's post page once the owner approves it", async () => {
    const slug = 'answer-me'
    await a.lake!.mutate([{create: post('two-2', slug, 'Answer me')}])
    const noteId = new URL(`${bActor}/notes/1`)
    await fromB.send(
      aActor,
      new Create({
        id: new URL(`${noteId.href}#create`),
        actor: new URL(bActor),
        object: new Note({
          id: noteId,
          attribution: new URL(bActor),
          replyTarget: new URL(postUrl(slug)),
          content: '<p>Answered from <strong>the other site</strong>.<img src="x.png"></p>',
          to: new URL('https://www.w3.org/ns/activitystreams#Public'),
        }),
      }),
    )
    const id = commentId(noteId.href)
    await untilDoc(a.lake!, id, Boolean)
    expect(a.lake!.getDocument(id)).toMatchObject({
      _type: 'socialComment',
      postId: 'two-2',
      status: 'pending',
      author: {actor: bActor},
      content: '<p>Answered from the other site.</p>',
    })
    const page = async () => (await fetch(postUrl(slug))).text()
    expect(await page()).not.toContain('Answered from')

    const owner = localClient(a.url, {
      token,
    })
    await owner.patch(id).set({status: 'approved'}).commit()
    await untilDoc(a.lake!, threadIdOf('two-2'), (doc) =>
      JSON.stringify(doc ?? null).includes('Answered from'),
    )
    const html = await page()
    expect(html).toContain('Answered from the other site.')
    // B's avatar or any of its images is never loaded by A's readers.
    expect(html).not.toContain(`src="${tapB.url}`)
  }, 120_000)

  it('a block of the actor, then of its instance, stops delivery to B and drops what B sends', async () => {
    // A follower A still delivers to: once it has a post's Delete, B would have had that post.
    const control = await startRemoteActor()
    try {
      const follow = await control.follow(`${a.config.siteUrl}/social/site`)
      await control.until((all) =>
        all.some((r) => r.type === 'Accept' && JSON.stringify(r.json).includes(follow.id!.href)),
      )
      const publishAndUnpublish = async (id: string, slug: string) => {
        await a.lake!.mutate([{create: post(id, slug, slug)}])
        await control.until((all) =>
          all.some((r) => r.type === 'Create' && r.objectId === postUrl(slug)),
        )
        await a.lake!.mutate([{delete: {id}}])
        await control.until((all) =>
          all.some((r) => r.type === 'Delete' && r.objectId === postUrl(slug)),
        )
        expect(control.received.filter((r) => r.objectId === postUrl(slug))).toHaveLength(2)
      }

      await a.lake!.mutate([{create: {_id: 'socialBlock.b', _type: 'socialBlock', target: bActor}}])
      await publishAndUnpublish('two-3', 'blocked-account')
      expect(tapB.delivered().filter((x) => objectIdOf(x) === postUrl('blocked-account'))).toEqual(
        [],
      )

      const bHost = new URL(tapB.url).host
      await a.lake!.mutate([
        {delete: {id: 'socialBlock.b'}},
        {create: {_id: 'socialBlock.host', _type: 'socialBlock', target: bHost}},
      ])
      await publishAndUnpublish('two-4', 'blocked-instance')
      expect(tapB.delivered().filter((x) => objectIdOf(x) === postUrl('blocked-instance'))).toEqual(
        [],
      )

      // What the blocked instance sends is dropped unread: its Like is never counted, while a
      // later Like from elsewhere is (A's inbox handles activities in order).
      const liked = new URL(postUrl('answer-me'))
      const fetchesOfB = tapB.tapped.length
      await fromB.send(
        aActor,
        new Like({id: new URL(`${bActor}#like-1`), actor: new URL(bActor), object: liked}),
      )
      await control.send(
        `${a.config.siteUrl}/social/site`,
        new Like({
          id: new URL(`${control.actorUrl()}#like-1`),
          actor: control.actorUri(),
          object: liked,
        }),
      )
      await untilDoc(a.lake!, threadIdOf('two-2'), (doc) =>
        JSON.stringify(doc ?? null).includes('"likes":1'),
      )
      expect(await reactionCounts(lakeContent(a.lake!), 'two-2')).toEqual({likes: 1, boosts: 0})
      // A fetched nothing of B for it (no key, no actor).
      expect(tapB.tapped.slice(fetchesOfB)).toEqual([])
    } finally {
      await control.close()
    }
  }, 120_000)

  it("A's pages link its actor and a shared post's Article, which answer as ActivityPub", async () => {
    const linked = async (path: string) => {
      const html = (await (await fetch(`${a.url}${path}`)).text()).split('</head>')[0]
      return {
        alternate: /<link rel="alternate" type="application\/activity\+json" href="([^"]+)"/.exec(
          html,
        )?.[1],
        me: /<link rel="me" href="([^"]+)"/.exec(html)?.[1],
      }
    }
    const asActivity = async (url: string) =>
      (await fetch(url, {headers: {accept: 'application/activity+json'}})).json()

    const home = await linked('/')
    expect(home).toEqual({alternate: aActor.id?.href, me: aActor.id?.href})
    expect(await asActivity(home.alternate!)).toMatchObject({type: 'Person'})

    const shared = await linked('/blog/answer-me')
    expect(shared).toEqual({alternate: postUrl('answer-me'), me: undefined})
    expect(await asActivity(shared.alternate!)).toMatchObject({type: 'Article', name: 'Answer me'})

    // A post kept off the social web has no Article, so its page names none.
    await a.lake!.mutate([{create: {...post('two-5', 'kept-home', 'Kept home'), socialWeb: false}}])
    expect(await linked('/blog/kept-home')).toEqual({alternate: undefined, me: undefined})
  }, 60_000)
})
