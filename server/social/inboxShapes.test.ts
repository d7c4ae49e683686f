import {readFileSync} from 'node:fs'
import {Create, Note} from '@fedify/vocab'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {inboxBodyLimit} from './inboxGuard.ts'
import {commentId} from './replies.ts'
import {threadIdOf} from './threads.ts'
import {startRemoteActor} from './testing/remoteActor.ts'
import {untilDoc} from '../../test/support/untilDoc.ts'

type Remote = Awaited<ReturnType<typeof startRemoteActor>>

/**
 * The inbox fed activities in the shapes Mastodon, Misskey and WordPress's ActivityPub plugin
 * send (server/social/testing/shapes/, written from their serializers' documented output),
 * POSTed byte for byte and signed by Fedify, and the bad inputs of issue 39 through the whole
 * server. The shapes' hosts are rewritten to the loopback servers: `https://remote.example`
 * is the sender (a Fedify server whose actor `reader` signs), `https://site.example` the site
 * and `SLUG` the post replied to.
 */
describe('the inbox, fed what other servers send', () => {
  let server: TestServer
  let remote: Remote
  let inbox: string
  const slug = 'a-letter-from-the-valley'
  const postId = 'shapes-post'

  const shape = (name: string, replace: Record<string, string> = {}) => {
    let json = readFileSync(new URL(`./testing/shapes/${name}.json`, import.meta.url), 'utf8')
      .replaceAll('https://site.example/blog/SLUG', `${server.config.siteUrl}/blog/${slug}`)
      .replaceAll('https://site.example', server.config.siteUrl)
      .replaceAll('https://remote.example', remote.origin)
    for (const [from, to] of Object.entries(replace)) json = json.replaceAll(from, to)
    return json
  }
  const objectIdOf = (json: string): string => {
    const parsed = JSON.parse(json) as {object: {id: string}}
    return parsed.object.id
  }
  /** Posts a shape and waits for the comment it makes. */
  const reply = async (json: string) => {
    const res = await remote.postSigned(inbox, json)
    expect(res.status).toBe(202)
    const id = commentId(objectIdOf(json))
    await untilDoc(server.lake!, id, Boolean)
    return server.lake!.getDocument(id)
  }
  /**
   * The inbox handles activities in order: once a reply sent after `send` is stored, what
   * `send` delivered was handled (or dropped).
   */
  let marks = 0
  const afterwards = async () => {
    const noteId = new URL(`${remote.actorUrl('other')}/notes/mark-${++marks}`)
    await remote.send(
      `${server.config.siteUrl}/social/site`,
      new Create({
        id: new URL(`${noteId.href}#create`),
        actor: remote.actorUri('other'),
        object: new Note({
          id: noteId,
          attribution: remote.actorUri('other'),
          replyTarget: new URL(`${server.config.siteUrl}/blog/${slug}`),
          content: 'A mark.',
        }),
      }),
      'other',
    )
    await untilDoc(server.lake!, commentId(noteId.href), Boolean)
  }

  beforeAll(async () => {
    vi.stubEnv('FEDERATION_ALLOW_PRIVATE', '1')
    remote = await startRemoteActor({names: ['reader', 'other']})
    server = await startTestServer({SEED: '0'})
    inbox = `${server.config.siteUrl}/social/inbox`
    await server.lake!.mutate([
      {
        create: {
          _id: postId,
          _type: 'post',
          title: 'A letter from the valley',
          slug: {_type: 'slug', current: slug},
          date: '2026-11-27',
        },
      },
    ])
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await remote?.close()
    vi.unstubAllEnvs()
  })

  it("Mastodon's reply: content warning, sensitive, mentions and hashtags kept, the rest dropped", async () => {
    const stored = await reply(shape('mastodon-reply'))
    expect(stored).toMatchObject({
      _type: 'socialComment',
      postId,
      status: 'pending',
      url: `${remote.origin}/@reader/113500000000000001`,
      sensitive: true,
      summary: 'Spoilers for the last chapter',
      published: '2026-11-27T09:15:02Z',
      author: {actor: remote.actorUrl(), name: 'Reader reader'},
    })
    expect(stored?.content).toBe(
      `<p><span class="h-card"><a href="${server.config.siteUrl}/social/site" class="u-url mention" rel="nofollow ugc noopener">@<span>writer</span></a></span> The ending made me cry.<br />Thank you! <a href="${remote.origin}/tags/kashmir" class="mention hashtag" rel="nofollow ugc noopener">#<span>kashmir</span></a></p>`,
    )
  })

  it("shows an approved reply on the post's page with its author's initials, never the remote avatar", async () => {
    const id = commentId(`${remote.origin}/users/reader/statuses/113500000000000001`)
    expect(server.lake!.getDocument(id)).toMatchObject({
      author: {avatar: `${remote.origin}/avatars/reader.png`},
    })
    await server.lake!.mutate([{patch: {id, set: {status: 'approved'}}}])
    await untilDoc(server.lake!, threadIdOf(postId), (doc) =>
      JSON.stringify(doc ?? null).includes('The ending made me cry.'),
    )
    const html = (await (await fetch(`${server.config.siteUrl}/blog/${slug}`)).text()).split(
      'id="site-payload"',
    )[0]
    expect(html).toContain('The ending made me cry.')
    // React marks the seam between text and a value with an empty comment.
    expect(html).toMatch(/Content warning: (<!-- -->)?Spoilers for the last chapter/)
    expect(html).toMatch(/aria-hidden="true"[^>]*>RR</)
    expect(html).not.toContain('/avatars/')
    expect(html).not.toContain(`src="${remote.origin}`)
  })

  it('a reply with its text in contentMap only (no plain content) keeps that text', async () => {
    const parsed = JSON.parse(
      shape('mastodon-reply', {'113500000000000001': '113500000000000005'}),
    ) as {object: Record<string, unknown>}
    delete parsed.object.content
    parsed.object.contentMap = {fr: '<p>Très beau texte.</p>'}
    const stored = await reply(JSON.stringify(parsed))
    expect(stored?.content).toBe('<p>Très beau texte.</p>')
  })

  it("Misskey's reply: the HTML content, not the MFM source; the quote fields are ignored", async () => {
    const stored = await reply(shape('misskey-reply'))
    expect(stored).toMatchObject({postId, status: 'pending', published: '2026-11-27T10:20:30Z'})
    expect(stored).not.toHaveProperty('sensitive')
    expect(stored).not.toHaveProperty('summary')
    expect(stored?.content).toBe(
      `<p><a href="${server.config.siteUrl}/social/site" class="u-url mention" rel="nofollow ugc noopener">@writer@site.example</a><span> すてきな文章！ </span><a href="${remote.origin}/tags/kashmir" rel="nofollow ugc noopener">#kashmir</a><span><br />また読みます</span></p>`,
    )
  })

  it("WordPress's comment (a Note): its link kept without script or style, its image dropped", async () => {
    const stored = await reply(shape('wordpress-reply'))
    expect(stored).toMatchObject({
      postId,
      status: 'pending',
      url: `${remote.origin}/2026/11/27/hello/#comment-123`,
    })
    expect(stored?.content).toBe(
      `<p>A fine essay, <a rel="nofollow ugc noopener" class="u-url mention" href="${server.config.siteUrl}/social/site">@<span>writer</span></a>. I wrote about the same valley <a href="${remote.origin}/2026/11/20/valley/" rel="nofollow ugc noopener">here</a>.</p>\n<p></p>`,
    )
  })

  it("WordPress's post answering ours (an Article): its title linked and its summary", async () => {
    const stored = await reply(shape('wordpress-article-reply'))
    const url = `${remote.origin}/2026/11/27/in-answer/`
    expect(stored).toMatchObject({postId, status: 'pending', url})
    expect(stored).not.toHaveProperty('summary')
    expect(stored?.content).toBe(
      `<p><a href="${url}" rel="nofollow ugc noopener">In answer to a letter from the valley</a></p><p>Why the valley matters to me, too.</p>`,
    )
  })

  it('refuses a tampered body (its signature no longer holds) with 401 and stores nothing', async () => {
    const json = shape('mastodon-reply', {'113500000000000001': '113500000000000002'})
    const res = await remote.postSigned(inbox, json, {
      tamper: (body) => body.replace('The ending made me cry.', 'Send money.'),
    })
    expect(res.status).toBe(401)
    await afterwards()
    expect(server.lake!.getDocument(commentId(objectIdOf(json)))).toBeUndefined()
  })

  it("refuses an activity whose actor does not own the signing key (reader's key, other's name)", async () => {
    const json = shape('mastodon-reply', {
      '113500000000000001': '113500000000000003',
      '/users/reader': '/users/other',
    })
    const res = await remote.postSigned(inbox, json, {name: 'reader'})
    expect(res.status).toBe(401)
    await afterwards()
    expect(server.lake!.getDocument(commentId(objectIdOf(json)))).toBeUndefined()
  })

  it('ignores a replayed Create (same id) after its author deleted the note', async () => {
    const json = shape('wordpress-reply', {'?c=123': '?c=124'})
    const noteId = objectIdOf(json)
    await reply(json)
    const deleted = JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${noteId}#delete`,
      type: 'Delete',
      actor: remote.actorUrl(),
      object: {id: noteId, type: 'Tombstone'},
    })
    expect((await remote.postSigned(inbox, deleted)).status).toBe(202)
    await untilDoc(server.lake!, commentId(noteId), (doc) => doc === undefined)
    expect((await remote.postSigned(inbox, json)).status).toBe(202)
    await afterwards()
    expect(server.lake!.getDocument(commentId(noteId))).toBeUndefined()
  })

  it("ignores a Delete of someone else's note", async () => {
    const json = shape('misskey-reply', {'9zk1x2c3v4': '9zk1x2c3v5'})
    const noteId = objectIdOf(json)
    await reply(json)
    const other = JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${remote.actorUrl('other')}#delete-${noteId}`,
      type: 'Delete',
      actor: remote.actorUrl('other'),
      object: noteId,
    })
    expect((await remote.postSigned(inbox, other, {name: 'other'})).status).toBe(202)
    await afterwards()
    expect(server.lake!.getDocument(commentId(noteId))).toMatchObject({status: 'pending'})
  })

  it('refuses a body over the cap with 413 and stores nothing', async () => {
    const json = shape('mastodon-reply', {'113500000000000001': '113500000000000004'}).replace(
      'The ending made me cry.',
      'x'.repeat(inboxBodyLimit),
    )
    const res = await remote.postSigned(inbox, json)
    expect(res.status).toBe(413)
    expect(await res.text()).toContain(`at most ${inboxBodyLimit} bytes`)
    expect(server.lake!.getDocument(commentId(objectIdOf(json)))).toBeUndefined()
  })

  it("drops a blocked instance's activity with 202, fetching nothing of it", async () => {
    const blocked = await startRemoteActor()
    try {
      await server.lake!.mutate([
        {
          create: {
            _id: 'socialBlock.shapes',
            _type: 'socialBlock',
            target: new URL(blocked.origin).host,
          },
        },
      ])
      const json = readFileSync(
        new URL('./testing/shapes/mastodon-reply.json', import.meta.url),
        'utf8',
      )
        .replaceAll('https://site.example/blog/SLUG', `${server.config.siteUrl}/blog/${slug}`)
        .replaceAll('https://site.example', server.config.siteUrl)
        .replaceAll('https://remote.example', blocked.origin)
      const res = await blocked.postSigned(inbox, json)
      expect(res.status).toBe(202)
      await afterwards()
      expect(server.lake!.getDocument(commentId(objectIdOf(json)))).toBeUndefined()
      // Nothing was fetched from it: not its key, not its actor.
      expect(blocked.fetched).toEqual([])
    } finally {
      await blocked.close()
    }
  })
})
