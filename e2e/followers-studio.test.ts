import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, expect, it, vi} from 'vitest'
import {followerId} from '../server/social/followers.ts'
import {blockIdOf} from '../server/social/ownerRoutes.ts'
import {ownerInStudio} from './studio-driver.ts'
import {startSite, stopSite, type TestServer} from './site.fixtures.ts'

// The owner's side of issue #39's followers: the Studio's Social web lists the followers with a
// count, the dead inboxes and the blocks, read-only, and a follower's menu blocks its instance
// (through POST /api/social/blocks with the Studio's session), which removes its followers.
let browser: Browser
let server: TestServer

const follower = (host: string, name: string, lastError?: string) => {
  const actor = `https://${host}/users/${name}`
  return {
    createOrReplace: {
      _id: followerId(actor),
      _type: 'socialFollower',
      actor,
      inbox: `${actor}/inbox`,
      handle: `@${name}@${host}`,
      name: `Reader ${name}`,
      followedAt: '2026-11-27T10:00:00.000Z',
      ...(lastError ? {lastError} : {}),
    },
  }
}

beforeAll(async () => {
  ;({server, browser} = await startSite())
  await server.lake!.mutate([
    follower('social.example', 'ada'),
    follower('gone.example', 'bob', '3 tries: 500 Internal Server Error'),
    follower('spam.example', 'mallory'),
    follower('spam.example', 'eve'),
  ])
}, 60_000)
afterAll(() => stopSite({browser, server}))

it('lists followers with a count and dead inboxes, and blocks a whole instance', async () => {
  const page = await ownerInStudio(browser, server)

  await page.getByText('Social web', {exact: true}).first().click()
  for (const title of ['Followers (4)', 'Dead inboxes (1)', 'Blocks (0)'])
    await page.getByText(title, {exact: true}).waitFor({timeout: 60_000})

  await page.getByText('Dead inboxes (1)', {exact: true}).click()
  await page.getByText('Dead inbox: 3 tries: 500 Internal Server Error').waitFor({timeout: 30_000})

  await page.getByText('Followers (4)', {exact: true}).click()
  const row = page.getByText('Reader mallory @mallory@spam.example', {exact: true})
  await row.waitFor({timeout: 60_000})
  await row.click()
  // Read-only: the account's address cannot be edited.
  const account = page.locator('input[value="https://spam.example/users/mallory"]')
  await account.waitFor({timeout: 30_000})
  expect(await account.isEditable()).toBe(false)

  await page.getByTestId('action-menu-button').click()
  await page.getByText('Block all of spam.example').click()
  await vi.waitFor(
    () => {
      expect(server.lake!.getDocument(blockIdOf('spam.example'))).toMatchObject({
        target: 'spam.example',
      })
    },
    {timeout: 30_000, interval: 200},
  )
  expect(server.lake!.getDocument(followerId('https://spam.example/users/eve'))).toBeUndefined()
  expect(server.lake!.getDocument(followerId('https://social.example/users/ada'))).toBeDefined()

  // Back to the Social web pane alone (with a document open, narrow panes collapse).
  await page.goto(`${server.httpsUrl}/studio/structure/social-web`)
  await page.getByText('Followers (2)', {exact: true}).waitFor({timeout: 60_000})
  await page.getByText('Blocks (1)', {exact: true}).click()
  await page.getByText('Whole instance', {exact: false}).first().waitFor({timeout: 30_000})
  await page.context().close()
})
