import type {SanityClient} from '@sanity/client'
import {lakeContent} from './socialContent.ts'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {storedReaction} from './testing/storedReaction.ts'
import {storedComment} from './testing/storedComment.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../test/support/lakeUnderTest.ts'
import {postSocialQuery} from '../../shared/siteQueries.ts'
import type {Lake} from '../lake/index.ts'
import {threadIdOf, Threads} from './threads.ts'
import {untilDoc} from '../../test/support/untilDoc.ts'

// Moderation over real HTTP: comments stored as the social web stores them, moderated through
// @sanity/client with the owner's token (what the Studio's liveEdit sends), read back through
// the site's public read path (anonymous, as every page render reads). The threads are wired to
// the lake's commits as server/social/feature.ts wires them; e2e/site.comments.test.ts and
// e2e/comments-studio.test.ts check the whole server and the rendered page.

let t: LakeUnderTest
let server: {lake: Lake}
let owner: SanityClient
let site: SanityClient
let stopThreads: () => void
const postId = 'post-talked-about'
const slug = 'talked-about'

/** The thread document once it holds `text` (or, `absent`, no longer does). */
const untilThread = (text: string, absent = false) =>
  untilDoc(
    server.lake,
    threadIdOf(postId),
    (doc) => JSON.stringify(doc ?? null).includes(text) !== absent,
  )

/** A stored comment under this test's post. */
const comment = (id: string, content: string, extra?: Record<string, unknown>) =>
  storedComment(postId, id, content, extra)

const shown = () => site.fetch(postSocialQuery, {slug})

beforeAll(async () => {
  t = await startLakeUnderTest()
  server = {lake: t.lake}
  const threads = new Threads(lakeContent(t.lake))
  stopThreads = t.lake.onCommit((committed) => threads.touched(committed.changes))
  owner = t.owner
  site = t.client({useCdn: false, token: ''})
  await owner.createOrReplace({
    _id: postId,
    _type: 'post',
    title: 'Talked about',
    slug: {_type: 'slug', current: slug},
    date: '2026-11-19',
  })
}, 60_000)
afterAll(async () => {
  stopThreads?.()
  await t?.stop()
})

describe('comments from the social web under a post', () => {
  it('shows nothing of a pending comment, then the comment once the owner approves it', async () => {
    await owner.createOrReplace(comment('first', '<p>Lovely piece, thank you.</p>'))
    expect(await shown()).toBeNull()
    // Private: not even the document is readable without the owner's token.
    expect(await site.getDocument('comment.first')).toBeUndefined()

    await owner.patch('comment.first').set({status: 'approved'}).commit()
    await untilThread('Lovely piece')
    expect(await shown()).toEqual({
      likes: 0,
      boosts: 0,
      comments: [
        {
          _key: 'first',
          authorName: 'Ada Reader',
          authorHandle: '@ada@social.example',
          authorProfile: 'https://social.example/@ada',
          content: '<p>Lovely piece, thank you.</p>',
          summary: null,
          published: '2026-11-20T10:00:00.000Z',
          url: 'https://social.example/@ada/first',
          replies: [],
        },
      ],
    })
  })

  it('never shows a pending or hidden comment, and withdraws one the owner hides', async () => {
    await owner
      .transaction()
      .createOrReplace(comment('waiting', '<p>Still pending</p>'))
      .createOrReplace(comment('hidden', '<p>Hidden away</p>', {status: 'hidden'}))
      .createOrReplace(comment('second', '<p>Second thoughts</p>', {status: 'approved'}))
      .commit()
    await untilThread('Second thoughts')
    const text = JSON.stringify(await shown())
    expect(text).not.toContain('Still pending')
    expect(text).not.toContain('Hidden away')

    await owner.patch('comment.second').set({status: 'hidden'}).commit()
    await untilThread('Second thoughts', true)
    expect(JSON.stringify(await shown())).not.toContain('Second thoughts')
    // Nothing private leaks into the public projection: no actor id, no avatar.
    const all = JSON.stringify(await site.fetch('*[_type == "socialThread"]'))
    expect(all).not.toContain('avatars/ada.png')
    expect(all).not.toContain('/users/ada')
  })

  it('nests a reply under its comment and drops a reply to an unapproved one', async () => {
    await owner
      .transaction()
      .createOrReplace(
        comment('answer', '<p>Agreed!</p>', {
          status: 'approved',
          inReplyToComment: 'comment.first',
          published: '2026-11-21T10:00:00.000Z',
        }),
      )
      .createOrReplace(
        comment('orphan', '<p>Answering the hidden one</p>', {
          status: 'approved',
          inReplyToComment: 'comment.hidden',
        }),
      )
      .commit()
    await untilThread('Agreed!')
    const thread = await shown()
    expect(thread?.comments?.map((c) => c._key)).toEqual(['first'])
    expect(thread?.comments?.[0].replies?.map((r) => r.content)).toEqual(['<p>Agreed!</p>'])
    expect(JSON.stringify(thread)).not.toContain('Answering the hidden one')
  })

  it('keeps markup in an approved comment inert', async () => {
    await owner.createOrReplace(
      comment(
        'hostile',
        '<p>Hi<script>alert(1)</script><img src="https://evil.example/x.png" onerror="alert(2)"><a href="javascript:alert(3)" onclick="alert(4)">link</a><style>body{display:none}</style></p>',
        {status: 'approved'},
      ),
    )
    await untilThread('"_key":"hostile"')
    const hostile = (await shown())?.comments?.find((c) => c._key === 'hostile')
    expect(hostile?.content).toMatch(/^<p>Hi/)
    for (const bad of [
      '<script',
      'alert(1)',
      '<img',
      'onerror',
      'javascript:',
      'onclick',
      '<style',
    ])
      expect(hostile?.content).not.toContain(bad)
  })

  it('counts likes and boosts, and removes the thread when nothing is left to show', async () => {
    const reaction = (id: string, kind: 'like' | 'boost') => storedReaction(postId, id, kind)
    await owner
      .transaction()
      .createOrReplace(reaction('l1', 'like'))
      .createOrReplace(reaction('l2', 'like'))
      .createOrReplace(reaction('b1', 'boost'))
      .commit()
    await untilDoc(server.lake, threadIdOf(postId), (doc) =>
      JSON.stringify(doc ?? null).includes('"boosts":1'),
    )
    expect(await shown()).toMatchObject({likes: 2, boosts: 1})

    const tx = owner.transaction()
    for (const id of [
      'reaction.l1',
      'reaction.l2',
      'reaction.b1',
      'comment.first',
      'comment.answer',
      'comment.orphan',
      'comment.hostile',
    ])
      tx.delete(id)
    await tx.commit()
    await untilDoc(server.lake, threadIdOf(postId), (doc) => doc === null || doc === undefined)
    expect(await shown()).toBeNull()
  })
})
