import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {openBrowser} from './support/sharedBrowser.ts'
import {startTestServer} from '../test/support/server.ts'
import {goInStudio, logIn, studioContext, waitForTitle, watchContext} from './studio-driver.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

const postId = 'post-presence'

/** Waits for another session's avatar level with a field (a session never sees its own). */
async function avatarBeside(page: Page, fieldTestId: string): Promise<void> {
  await page.waitForFunction(
    (testId) => {
      const field = document.querySelector(`[data-testid="${testId}"]`)?.getBoundingClientRect()
      if (!field) return false
      const avatars = document.querySelectorAll(
        '[data-testid="document-panel-scroller"] [data-ui="Avatar"]',
      )
      return [...avatars].some((avatar) => {
        if (avatar.closest('[data-ui="Tooltip"]') || avatar.textContent?.toUpperCase() !== 'SO')
          return false
        const box = avatar.getBoundingClientRect()
        const middle = box.top + box.height / 2
        return box.width > 0 && middle >= field.top && middle <= field.bottom
      })
    },
    fieldTestId,
    {timeout: 30_000},
  )
}

describe('two Studio sessions on one post', () => {
  let server: Server
  let browser: Browser
  const contexts: BrowserContext[] = []
  const watches: Array<ReturnType<typeof watchContext>> = []
  const pages: Page[] = []

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    await server.lake?.mutate([
      {
        create: {
          _id: postId,
          _type: 'post',
          title: 'Shared post',
          slug: {_type: 'slug', current: 'shared-post'},
          date: '2024-02-02',
          category: 'General',
        },
      },
    ])
    browser = await openBrowser()
    for (let i = 0; i < 2; i++) {
      const context = await studioContext(browser)
      watches.push(watchContext(context))
      contexts.push(context)
      const page = await context.newPage()
      await logIn(page, server.url, server.lake?.token ?? '')
      await goInStudio(page, `/studio/structure/posts;${postId}`)
      await waitForTitle(page, 'Shared post')
      pages.push(page)
    }
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("see each other's presence beside the field the other one is in", async () => {
    const [a, b] = pages
    await a.getByTestId('field-title').locator('input').click()
    await b.getByTestId('field-excerpt').locator('textarea').click()
    // Document-level presence lists only sessions in no field; in a field, the other session's
    // avatar (the owner's initials) is drawn beside it, on the form's presence overlay.
    await avatarBeside(b, 'field-title')
    await avatarBeside(a, 'field-excerpt')
  })

  it("see each other's edits appear live", async () => {
    const [a, b] = pages
    await a.getByTestId('field-title').locator('input').fill('Shared post, edited in A')
    await waitForTitle(b, 'Shared post, edited in A')
    await b.getByTestId('field-excerpt').locator('textarea').fill('Written in B.')
    await a.waitForFunction(
      () =>
        document.querySelector<HTMLTextAreaElement>('[data-testid="field-excerpt"] textarea')
          ?.value === 'Written in B.',
      null,
      {timeout: 30_000},
    )
    const draft = server.lake?.getDocument(`drafts.${postId}`)
    expect(draft).toMatchObject({title: 'Shared post, edited in A', excerpt: 'Written in B.'})
  })

  it('made no request beyond loopback, and logged no console error', () => {
    for (const watch of watches) {
      expect(watch.foreignRequests).toEqual([])
      expect(watch.consoleErrors).toEqual([])
    }
  })
})
