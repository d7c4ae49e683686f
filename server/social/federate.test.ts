import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {lakeContent} from './socialContent.ts'
import {createPost} from './testing/createPost.ts'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {startRemoteActor} from './testing/remoteActor.ts'
import {Announce, Create, Delete, Like, Note, Undo, Update} from '@fedify/vocab'
import {isRecord} from '../util/isRecord.ts'
import {followerId} from './followers.ts'
import {countWords, reactionCounts} from './reactions.ts'
import {commentId} from './replies.ts'
import {untilDoc} from '../../test/support/untilDoc.ts'

type Remote = Awaited<ReturnType<typeof startRemoteActor>>

/**
 * The site and another fediverse server (Fedify on both sides, real HTTP on loopback, real
 * signatures): follow and accept, a publish arriving once, an edit as Update, an unpublish as
 * Delete, an unfollow.
 */
describe('federating with another server', () => {
  let server: TestServer
  let remote: Remote
  let siteActor: string
  beforeAll(async () => {
    vi.stubEnv('FEDERATION_ALLOW_PRIVATE', '1')
    remote = await startRemoteActor({names: ['reader', 'other']})
    server = await startTestServer()
    siteActor = `${server.config.siteUrl}/social/site`
    // Starting the whole server on a loaded machine (two cores, many tests) takes a while.
  }, 60_000)
  afterAll(async () => {
    await server.stop()
    await remote.close()
    vi.unstubAllEnvs()
  })

  const postUrl = (slug: string) => `${server.config.siteUrl}/blog/${slug}`
  const of = (type: string, objectId: string) =>
    remote.received.filter((r) => r.type === type && r.objectId === objectId)

  it('accepts a Follow and stores the follower', async () => {
    const follow = await remote.follow(siteActor)
    await remote.until((all) =>
      all.some((r) => r.type === 'Accept' && r.objectId === follow.id?.href),
    )
    const stored = server.lake!.getDocument(followerId(remote.actorUrl()))
    expect(stored).toMatchObject({
      _type: 'socialFollower',
      actor: remote.actorUrl(),
      handle: expect.stringContaining('@reader@'),
    })
    const followers = (await (
      await fetch(`${server.url}/social/site/followers`, {
        headers: {accept: 'application/activity+json'},
      })
    ).json()) as {totalItems: number}
    expect(followers.totalItems).toBe(1)
  })

  it('ignores a replayed Follow (same id): it is accepted once', async () => {
    const follow = await remote.follow(siteActor)
    const accepted = () =>
      remote.received.filter(
        (r) => r.type === 'Accept' && JSON.stringify(r.json).includes(follow.id!.href),
      )
    await remote.until(() => accepted().length === 1)
    await remote.send(siteActor, follow)
    // The inbox and the outbox keep order: once a later Follow is accepted, the replay was seen.
    const later = await remote.follow(siteActor)
    await remote.until((all) =>
      all.some((r) => r.type === 'Accept' && JSON.stringify(r.json).includes(later.id!.href)),
    )
    expect(accepted()).toHaveLength(1)
  })

  it('sends a first publish as one Create(Article), an edit as Update, an unpublish as Delete', async () => {
    const slug = 'a-letter-from-the-valley'
    await server.lake!.mutate([
      createPost('fedi-post-1', slug, {
        title: 'A letter from the valley',
        date: '2026-11-27',
        category: 'Writing',
        excerpt: 'Snow on the passes.',
        body: [
          {
            _type: 'block',
            _key: 'b1',
            style: 'normal',
            children: [{_type: 'span', _key: 's1', text: 'Snow came early.'}],
            markDefs: [],
          },
        ],
      }),
    ])
    await remote.until(() => of('Create', postUrl(slug)).length > 0)
    const create = of('Create', postUrl(slug))[0].json as {object: Record<string, unknown>}
    expect(create.object).toMatchObject({
      type: 'Article',
      name: 'A letter from the valley',
      summary: 'Snow on the passes.',
      url: postUrl(slug),
    })
    expect(String(create.object.content)).toContain('Snow came early.')

    await server.lake!.mutate([
      {patch: {id: 'fedi-post-1', set: {title: 'A letter from the high valley'}}},
    ])
    await remote.until(() => of('Update', postUrl(slug)).length > 0)
    expect((of('Update', postUrl(slug))[0].json as {object: {name: string}}).object.name).toBe(
      'A letter from the high valley',
    )

    await server.lake!.mutate([{delete: {id: 'fedi-post-1'}}])
    await remote.until(() => of('Delete', postUrl(slug)).length > 0)
    expect(of('Create', postUrl(slug))).toHaveLength(1)
    expect(of('Update', postUrl(slug))).toHaveLength(1)
  })

  it('stores a reply as a pending comment, sanitized; its author edits and deletes it, no one else', async () => {
    const post = await server.lake!.query<{_id: string; slug: string}>(
      '*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**"))][0]{_id, "slug": slug.current}',
    )
    const noteId = new URL(`${remote.actorUrl()}/notes/1`)
    const note = (content: string) =>
      new Note({
        id: noteId,
        attribution: remote.actorUri(),
        replyTarget: new URL(postUrl(post.slug)),
        content,
        to: new URL('https://www.w3.org/ns/activitystreams#Public'),
      })
    await remote.send(
      siteActor,
      new Create({
        id: new URL(`${noteId.href}#create`),
        actor: remote.actorUri(),
        object: note(
          '<p>Lovely piece, <span class="h-card"><a class="u-url mention" href="https://x.example/@zoya">@zoya</a></span>!<script>alert(1)</script><img src="https://evil.example/p.png"><a href="javascript:alert(1)">click</a></p>',
        ),
      }),
    )
    const id = commentId(noteId.href)
    await untilDoc(server.lake!, id, Boolean)
    const stored = server.lake!.getDocument(id)
    expect(stored).toMatchObject({
      _type: 'socialComment',
      postId: post._id,
      status: 'pending',
      author: {actor: remote.actorUrl(), name: 'Reader reader'},
    })
    expect(stored?.content).toBe(
      '<p>Lovely piece, <span class="h-card"><a class="u-url mention" href="https://x.example/@zoya" rel="nofollow ugc noopener">@zoya</a></span>!<a rel="nofollow ugc noopener">click</a></p>',
    )
    // Private: the public read path never shows it.
    const anonymous = await fetch(
      `${server.url}/v2025-02-19/data/query/production?query=${encodeURIComponent('*[_type == "socialComment"]')}`,
    )
    expect(((await anonymous.json()) as {result: unknown[]}).result).toEqual([])

    await remote.send(
      siteActor,
      new Update({
        id: new URL(`${noteId.href}#update`),
        actor: remote.actorUri(),
        object: note('<p>Edited.</p>'),
      }),
    )
    await untilDoc(server.lake!, id, (doc) => isRecord(doc) && doc.content === '<p>Edited.</p>')

    // Someone else's Delete of the note is ignored; the author's removes the comment.
    await remote.send(
      siteActor,
      new Delete({
        id: new URL(`${remote.actorUrl('other')}#delete-1`),
        actor: remote.actorUri('other'),
        object: noteId,
      }),
      'other',
    )
    // The inbox keeps order: the author's later edit lands on the comment, which is still there.
    await remote.send(
      siteActor,
      new Update({
        id: new URL(`${noteId.href}#update-2`),
        actor: remote.actorUri(),
        object: note('<p>Still here.</p>'),
      }),
    )
    await untilDoc(server.lake!, id, (doc) => isRecord(doc) && doc.content === '<p>Still here.</p>')
    await remote.send(
      siteActor,
      new Delete({id: new URL(`${noteId.href}#delete`), actor: remote.actorUri(), object: noteId}),
    )
    await untilDoc(server.lake!, id, (doc) => doc === undefined)
  })

  it('auto-approves a new reply from an account the owner approved before, when she chose so', async () => {
    const post = await server.lake!.query<{slug: string}>(
      '*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**"))][0]{"slug": slug.current}',
    )
    const reply = async (n: number, name = 'reader') => {
      const noteId = new URL(`${remote.actorUrl(name)}/notes/auto-${n}`)
      await remote.send(
        siteActor,
        new Create({
          id: new URL(`${noteId.href}#create`),
          actor: remote.actorUri(name),
          object: new Note({
            id: noteId,
            attribution: remote.actorUri(name),
            replyTarget: new URL(postUrl(post.slug)),
            content: `<p>Reply ${n}.</p>`,
          }),
        }),
        name,
      )
      const id = commentId(noteId.href)
      await untilDoc(server.lake!, id, Boolean)
      return {id, status: server.lake!.getDocument(id)?.status}
    }
    const autoApprove = (on: boolean) =>
      server.lake!.mutate([
        {createIfNotExists: {_id: 'siteSettings', _type: 'siteSettings'}},
        {patch: {id: 'siteSettings', set: {autoApproveReplies: on}}},
      ])

    await autoApprove(true)
    // A first reply waits: the owner has approved nothing of this account yet.
    const first = await reply(1)
    expect(first.status).toBe('pending')
    await server.lake!.mutate([{patch: {id: first.id, set: {status: 'approved'}}}])
    expect((await reply(2)).status).toBe('approved')
    // Another account is not known; and with the setting off, a known one waits again.
    expect((await reply(3, 'other')).status).toBe('pending')
    await autoApprove(false)
    expect((await reply(4)).status).toBe('pending')
    // A hidden reply withdraws the trust.
    await autoApprove(true)
    const hidden = await reply(5)
    await server.lake!.mutate([{patch: {id: hidden.id, set: {status: 'hidden'}}}])
    expect((await reply(6)).status).toBe('pending')
  })

  it('counts likes and boosts once per account, and takes back an undone like', async () => {
    const post = await server.lake!.query<{_id: string; slug: string}>(
      '*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**"))][0]{_id, "slug": slug.current}',
    )
    const object = new URL(postUrl(post.slug))
    const like = (n: number, name = 'reader') =>
      new Like({
        id: new URL(`${remote.actorUrl(name)}#like-${n}`),
        actor: remote.actorUri(name),
        object,
      })
    await remote.send(siteActor, like(1))
    await remote.send(siteActor, like(2))
    await remote.send(siteActor, like(3, 'other'), 'other')
    await remote.send(
      siteActor,
      new Announce({id: new URL(`${remote.actorUrl()}#boost-1`), actor: remote.actorUri(), object}),
    )
    const counts = () => reactionCounts(lakeContent(server.lake!), post._id)
    const until = async (want: {likes: number; boosts: number}) => {
      for (;;) {
        const committed = new Promise<void>((resolve) => {
          const stop = server.lake!.onCommit(() => {
            stop()
            resolve()
          })
        })
        if (JSON.stringify(await counts()) === JSON.stringify(want)) return
        await committed
      }
    }
    await until({likes: 2, boosts: 1})
    await remote.send(
      siteActor,
      new Undo({
        id: new URL(`${remote.actorUrl('other')}#undo-like-3`),
        actor: remote.actorUri('other'),
        object: like(3, 'other'),
      }),
      'other',
    )
    await until({likes: 1, boosts: 1})
    expect([countWords(1, 'like'), countWords(3, 'boost')]).toEqual(['1 like', '3 boosts'])
  })

  it('stops delivering to a blocked instance, and drops what it sends', async () => {
    const blocked = await startRemoteActor()
    try {
      const follow = await blocked.follow(siteActor)
      await blocked.until((all) =>
        all.some((r) => r.type === 'Accept' && JSON.stringify(r.json).includes(follow.id!.href)),
      )
      const host = new URL(blocked.origin).host
      await server.lake!.mutate([
        {create: {_id: 'socialBlock.test', _type: 'socialBlock', target: host}},
      ])
      const slug = 'a-second-letter'
      await server.lake!.mutate([
        createPost('fedi-post-2', slug, {
          title: 'A second letter',
          date: '2026-11-27',
          category: 'Writing',
        }),
      ])
      // The unpublish's Delete is queued after every delivery of the Create: once the unblocked
      // follower has the Delete, the blocked one would have had its Create.
      await remote.until(() => of('Create', postUrl(slug)).length > 0)
      await server.lake!.mutate([{delete: {id: 'fedi-post-2'}}])
      await remote.until(() => of('Delete', postUrl(slug)).length > 0)
      expect(blocked.received.filter((r) => r.objectId === postUrl(slug))).toEqual([])
      // Its activities are dropped unread: a Follow from it is answered 202 and never accepted.
      await blocked.follow(siteActor)
      expect(blocked.received.filter((r) => r.type === 'Accept')).toHaveLength(1)
    } finally {
      await blocked.close()
    }
  })

  it('refuses an unsigned activity with 401 and stores nothing', async () => {
    const res = await fetch(`${server.url}/social/site/inbox`, {
      method: 'POST',
      headers: {'content-type': 'application/activity+json'},
      body: JSON.stringify({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: 'https://evil.example/follow/1',
        type: 'Follow',
        actor: 'https://evil.example/users/mallory',
        object: siteActor,
      }),
    })
    expect(res.status).toBe(401)
    expect(
      server.lake!.getDocument(followerId('https://evil.example/users/mallory')),
    ).toBeUndefined()
  })
})
