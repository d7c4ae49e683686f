import {randomBytes} from 'node:crypto'
import type {SanityClient} from '@sanity/client'
import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {storedReaction} from '../server/social/testing/storedReaction.ts'
import {localClient} from '../test/support/localClient.ts'
import {storedComment} from '../server/social/testing/storedComment.ts'
import {axe} from './support/axe.ts'
import {
  createPosts,
  hydrated,
  openPage,
  startSite,
  stopSite,
  unexpected,
  withoutApp,
  type TestServer,
} from './site.fixtures.ts'

// Comments from the social web under a post, as readers get them: moderated by the owner through
// @sanity/client (what the Studio's liveEdit form sends), rendered on the server.

const token = randomBytes(32).toString('hex')
let site: {server: TestServer; browser: Browser}
let owner: SanityClient
const slug = 'talked-about'
const postId = `post-${slug}`

/** A stored comment under this test's post. */
const comment = (id: string, content: string, extra?: Record<string, unknown>) =>
  storedComment(postId, id, content, extra)

const reaction = (id: string, kind: 'like' | 'boost') => storedReaction(postId, id, kind)

const pageHtml = async () => (await fetch(`${site.server.url}/blog/${slug}`)).text()

/** The page once `test` holds of its HTML (the render cache drops it on the live event). */
const pageWhen = (test: (html: string) => boolean) =>
  vi.waitFor(
    async () => {
      const html = await pageHtml()
      if (!test(html)) throw new Error('not yet')
      return html
    },
    {timeout: 20_000, interval: 100},
  )

beforeAll(async () => {
  site = await startSite({LAKE_TOKEN: token})
  owner = localClient(site.server.url, {
    token,
  })
  await createPosts(site.server, [
    {slug, title: 'Talked about', date: '2026-11-19', category: 'Essays'},
  ])
  await owner
    .transaction()
    .createOrReplace(comment('first', '<p>Lovely piece, thank you.</p>'))
    .createOrReplace(
      comment('answer', '<p>Agreed with Ada!</p>', {
        inReplyToComment: 'comment.first',
        published: '2026-11-21T10:00:00.000Z',
        author: {
          actor: 'https://other.example/users/bo',
          name: 'Bo',
          profile: 'https://other.example/@bo',
        },
      }),
    )
    .createOrReplace(comment('waiting', '<p>Still pending</p>'))
    .createOrReplace(
      comment(
        'hostile',
        '<p>Hostile<script>window.hacked = 1</script><img src="x" onerror="window.hacked = 2"></p>',
      ),
    )
    .createOrReplace(reaction('l1', 'like'))
    .createOrReplace(reaction('l2', 'like'))
    .createOrReplace(reaction('l3', 'like'))
    .createOrReplace(reaction('b1', 'boost'))
    .commit()
}, 60_000)
afterAll(() => stopSite(site))

describe('comments under a post', () => {
  it('shows no pending comment, only the counts', async () => {
    const html = await pageWhen((h) => h.includes('3 likes'))
    expect(html).toContain('1 boost')
    expect(html).not.toContain('Lovely piece')
    expect(html).not.toContain('Still pending')
  })

  it('shows a comment the owner approved, its author linked, its reply nested', async () => {
    await owner
      .transaction()
      .patch('comment.first', (p) => p.set({status: 'approved'}))
      .patch('comment.answer', (p) => p.set({status: 'approved'}))
      .patch('comment.hostile', (p) => p.set({status: 'approved'}))
      .commit()
    const html = await pageWhen((h) => h.includes('Lovely piece') && h.includes('Agreed with Ada'))
    expect(html).not.toContain('Still pending')
    expect(html).toMatch(
      /<a href="https:\/\/social\.example\/@ada" rel="nofollow ugc noopener">Ada Reader<\/a>/,
    )
    // Remote avatars are never loaded by readers.
    expect(html).not.toContain('avatars/ada.png')

    const {page, problems} = await openPage(site.browser, {javaScriptEnabled: false})
    await page.goto(`${site.server.url}/blog/${slug}`)
    const section = page.getByRole('region', {name: 'Comments'})
    const first = section.getByRole('listitem').filter({hasText: 'Lovely piece'}).first()
    await expect(first.getByRole('link', {name: 'Ada Reader'}).getAttribute('rel')).resolves.toBe(
      'nofollow ugc noopener',
    )
    // The reply sits inside its comment's item, in a nested list.
    await expect(
      first.locator('ol > li').filter({hasText: 'Agreed with Ada'}).count(),
    ).resolves.toBe(1)
    await expect(section.getByText('3 likes · 1 boost', {exact: false}).count()).resolves.toBe(1)
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('keeps markup in a comment inert, and the page axe-clean and hydrating cleanly', async () => {
    const html = await pageWhen((h) => h.includes('Hostile'))
    // The comments' section as served (the page's own boot script is not in it).
    const section = /<section[^>]*aria-labelledby="comments-heading".*?<\/section>/s.exec(html)?.[0]
    expect(section).toContain('<p>Hostile</p>')
    for (const bad of ['window.hacked', 'onerror', '<script', '<img'])
      expect(section).not.toContain(bad)

    const {page, problems} = await openPage(site.browser)
    await withoutApp(page)
    await page.goto(`${site.server.url}/blog/${slug}`)
    expect(await axe(page)).toEqual([])
    await page.context().close()

    const live = await openPage(site.browser)
    await live.page.goto(`${site.server.url}/blog/${slug}`)
    await hydrated(live.page)
    expect(
      await live.page.evaluate(() => (window as unknown as {hacked?: number}).hacked),
    ).toBeUndefined()
    expect(unexpected(live.problems)).toEqual([])
    expect(unexpected(problems)).toEqual([])
    await live.page.context().close()
  })

  it('withdraws a comment the owner hides', async () => {
    await owner.patch('comment.first').set({status: 'hidden'}).commit()
    const html = await pageWhen((h) => !h.includes('Lovely piece'))
    // Its reply answered what readers can no longer see: withdrawn with it.
    expect(html).not.toContain('Agreed with Ada')
    expect(html).toContain('Hostile')
  })
})
