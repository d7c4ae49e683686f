import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, expect, it, vi} from 'vitest'
import {ownerInStudio} from './studio-driver.ts'
import {startSite, stopSite, type TestServer} from './site.fixtures.ts'

// The owner's side of issue #39's comments: a pending reply is listed under Comments → Pending,
// opens with its status as the one editable field, and approving it in the real Studio shows it
// under the post to a reader without JavaScript.
let browser: Browser
let server: TestServer
const slug = 'talked-about'

beforeAll(async () => {
  ;({server, browser} = await startSite())
  await server.lake!.mutate([
    {
      createOrReplace: {
        _id: `post-${slug}`,
        _type: 'post',
        title: 'Talked about',
        slug: {_type: 'slug', current: slug},
        date: '2026-11-19',
      },
    },
    {
      createOrReplace: {
        _id: 'comment.first',
        _type: 'socialComment',
        postId: `post-${slug}`,
        status: 'pending',
        noteId: 'https://social.example/notes/first',
        url: 'https://social.example/@ada/first',
        author: {
          actor: 'https://social.example/users/ada',
          name: 'Ada Reader',
          handle: '@ada@social.example',
          profile: 'https://social.example/@ada',
        },
        content: '<p>Lovely piece, thank you.</p>',
        published: '2026-11-20T10:00:00.000Z',
      },
    },
  ])
}, 60_000)
afterAll(() => stopSite({browser, server}))

it('approves a comment in the Studio, and the post shows it with JavaScript off', async () => {
  const page = await ownerInStudio(browser, server)

  await page.getByText('Comments', {exact: true}).first().click()
  await page.getByText('Pending', {exact: true}).first().click()
  const row = page.getByText('Ada Reader @ada@social.example', {exact: true})
  await row.waitFor({timeout: 60_000})
  await row.click()
  // Everything but the status is read-only.
  const content = page.locator('textarea').filter({hasText: 'Lovely piece'})
  await content.waitFor({timeout: 30_000})
  expect(await content.isEditable()).toBe(false)
  await page.getByLabel('Approved – shown under the post').check()

  const html = await vi.waitFor(
    async () => {
      const text = await (await fetch(`${server.url}/blog/${slug}`)).text()
      if (!text.includes('Lovely piece')) throw new Error('not shown yet')
      return text
    },
    {timeout: 30_000, interval: 200},
  )
  expect(server.lake!.getDocument('comment.first')?.status).toBe('approved')
  expect(html).toContain('Ada Reader')
  await page.context().close()

  const reader = await browser.newContext({javaScriptEnabled: false})
  const post = await reader.newPage()
  await post.goto(`${server.url}/blog/${slug}`)
  const section = post.getByRole('region', {name: 'Comments'})
  await expect(section.getByText('Lovely piece, thank you.').count()).resolves.toBe(1)
  await reader.close()
})
