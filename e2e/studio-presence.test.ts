import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {launchBrowser} from './support/browser.ts'
import {startTestServer} from './support/server.ts'
import {logIn, studioContext, watchContext} from './studio-driver.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

const postId = 'post-presence'

describe('two Studio sessions on one post', () => {
  let server: Server
  let browser: Browser
  const contexts: BrowserContext[] = []
  const watches: Array<ReturnType<typeof watchContext>> = []
  const pages: Page[] = []

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    await server.lake?.mutate([
      {create: {_id: postId, _type: 'post', title: 'Shared post', slug: {_type: 'slug', current: 'shared-post'}, date: '2024-02-02', category: 'General'}},
    ])
    browser = await launchBrowser()
    for (let i = 0; i < 2; i++) {
      const context = await studioContext(browser)
      watches.push(watchContext(context))
      contexts.push(context)
      const page = await context.newPage()
      await logIn(page, server.url, server.lake?.token ?? '')
      await page.goto(`${server.httpsUrl}/studio/structure/posts;${postId}`)
      await page.getByTestId('field-title').locator('input').waitFor()
      pages.push(page)
    }
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("see each other's presence on the document", async () => {
    const [a, b] = pages
    await a.getByTestId('field-title').locator('input').click()
    await b.getByTestId('field-excerpt').locator('textarea').click()
    for (const page of [a, b]) {
      // The other session's avatar (the owner's initials) in the document's presence stack.
      await page.getByTestId('document-level-presence').getByText('SO').first().waitFor({timeout: 30_000})
    }
  })

  it("see each other's edits appear live", async () => {
    const [a, b] = pages
    await a.getByTestId('field-title').locator('input').fill('Shared post, edited in A')
    await b.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid="field-title"] input')?.value === 'Shared post, edited in A', null, {timeout: 30_000})
    await b.getByTestId('field-excerpt').locator('textarea').fill('Written in B.')
    await a.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('[data-testid="field-excerpt"] textarea')?.value === 'Written in B.', null, {timeout: 30_000})
    const draft = server.lake?.getDocument(`drafts.${postId}`)
    expect(draft).toMatchObject({title: 'Shared post, edited in A', excerpt: 'Written in B.'})
  })

  it('made no request beyond loopback and the known hosts, and logged no other console error', () => {
    for (const watch of watches) {
      expect(watch.foreignRequests).toEqual([])
      expect(watch.consoleErrors).toEqual([])
    }
  })
})
