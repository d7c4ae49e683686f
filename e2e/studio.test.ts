import type {Browser, BrowserContext, Page} from 'playwright-core'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {postCategories} from '../schemas/categories.ts'
import {postListQuery} from '../web/queries.ts'
import {launchBrowser} from './support/browser.ts'
import {startTestServer} from './support/server.ts'
import {chooseFromActionMenu, createFromMenu, goInStudio, logIn, setPerspective, studioContext, waitForPublishable, watchContext} from './studio-driver.ts'
import {decorators, pasteRichBody, styles, typeRichBody} from './studio-editor.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>
type Post = {_id: string; title: string; slug?: {current: string}; category: string; body?: Array<{style?: string; listItem?: string; markDefs?: Array<{_key: string; href?: string}>; children: Array<{text: string; marks: string[]}>}>}

let server: Server
let browser: Browser
let context: BrowserContext
let page: Page
let watch: ReturnType<typeof watchContext>
const created: Record<string, string> = {}

const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-')

/** Polls the lake until `check` holds (the Studio commits asynchronously). */
async function eventually<T>(read: () => T | undefined, check: (value: T | undefined) => boolean, what: string): Promise<T | undefined> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const value = read()
    if (check(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)?.slice(0, 300)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const doc = (id: string) => server.lake?.getDocument(id) as Post | undefined

async function sitePage(path: string): Promise<Page> {
  const site = await context.newPage()
  await site.goto(`${server.url}${path}`)
  return site
}

/** Opens a post in the Studio and waits for its form (not the previous post's) to show it. */
async function openPost(id: string): Promise<void> {
  const title = (doc(`drafts.${id}`) ?? doc(id))?.title
  await goInStudio(page, `/studio/structure/posts;${id}`)
  await page.waitForFunction((expected) => document.querySelector<HTMLInputElement>('[data-testid="field-title"] input')?.value === expected, title)
}

async function publish(id: string, title: string): Promise<void> {
  await waitForPublishable(page)
  await page.getByTestId('action-publish').click()
  await eventually(() => doc(id), (d) => d?.title === title && !doc(`drafts.${id}`), `"${title}" to be published`)
}

describe('the embedded Studio on the local lake', () => {
  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    browser = await launchBrowser()
    context = await studioContext(browser)
    watch = watchContext(context)
    page = await context.newPage()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('logs in through the login page and lands in the structure over HTTPS', async () => {
    await logIn(page, server.url, server.lake?.token ?? '')
    expect(new URL(page.url()).origin).toBe(server.httpsUrl)
    for (const category of postCategories) await expect(page.getByTestId(`pane-item-${category}`).isVisible()).resolves.toBe(true)
  })

  it('creates and publishes a post in every category with every style and mark; the site shows each in its tab', {timeout: 240_000}, async () => {
    for (const category of postCategories) {
      const title = `A ${category} story`
      // The global create menu offers posts only: the Inbox's messages come from the relay.
      const {offered, id} = await createFromMenu(page, 'Post')
      expect(offered).toEqual(['Post'])
      expect(id).not.toBe('')
      await page.getByTestId('field-title').locator('input').fill(title)
      await page.getByTestId('field-slug').getByRole('button', {name: 'Generate'}).click()
      await page.getByTestId('field-date').locator('input').fill(`2024-0${postCategories.indexOf(category) + 1}-15`)
      await page.getByTestId('field-excerpt').locator('textarea').fill(`Excerpt of the ${category} story.`)
      await page.getByTestId('field-category').getByLabel(category).check()
      const href = `https://example.com/${category.toLowerCase()}`
      // The first body through the editor's toolbar and keys; the others pasted (much faster).
      if (category === postCategories[0]) {
        await typeRichBody(page, category, href, () =>
          eventually(() => doc(`drafts.${id}`), (d) => Boolean(d?.body?.some((b) => b.markDefs?.some((m) => m.href === href))), 'the link'),
        )
      } else {
        await pasteRichBody(page, category, href)
      }
      created[category] = id
      // Publish what was typed: the editor saves its last keystrokes a moment after them.
      const lastItem = `A numbered item of ${category}`
      await eventually(() => doc(`drafts.${id}`), (d) => d?.body?.at(-1)?.listItem === 'number' && d.body.at(-1)?.children.map((c) => c.text).join('') === lastItem, 'the whole body')
      await publish(id, title)

      const stored = doc(id)
      expect(stored?.slug?.current).toBe(slugOf(title))
      expect(stored?.category).toBe(category)
      const blocks = stored?.body ?? []
      expect(blocks.map((b) => b.style)).toEqual(expect.arrayContaining(styles.map(([, value]) => value)))
      expect(blocks.map((b) => b.listItem).filter(Boolean)).toEqual(['bullet', 'number'])
      const marks = blocks.flatMap((b) => b.children.flatMap((c) => c.marks))
      for (const [, mark] of decorators) expect(marks).toContain(mark)
      const links = blocks.flatMap((b) => b.markDefs ?? [])
      expect(links.map((m) => m.href)).toEqual([href])
      expect(blocks.flatMap((b) => b.children.filter((c) => c.marks.includes(links[0]?._key ?? '')).map((c) => c.text))).toEqual(['link'])
    }
    // The site's own list query, anonymously through the lake's HTTP API.
    const list = await fetch(`${server.url}/v2023-07-29/data/query/production?query=${encodeURIComponent(postListQuery)}`)
    const {result} = (await list.json()) as {result: Array<{title: string; category: string}>}
    expect(result.map((p) => p.category).sort()).toEqual([...postCategories].sort())

    for (const category of postCategories) {
      const title = `A ${category} story`
      const tab = await sitePage(`/blog?category=${encodeURIComponent(category)}`)
      await expect(tab.getByRole('link', {name: new RegExp(title)}).count()).resolves.toBe(1)
      await expect(tab.getByText(/A \w+ story/).count()).resolves.toBe(1)
      await tab.goto(`${server.url}/blog/${slugOf(title)}`)
      await expect(tab.getByRole('heading', {level: 1, name: title}).count()).resolves.toBe(1)
      await expect(tab.locator('a[href="https://example.com/' + category.toLowerCase() + '"]').count()).resolves.toBe(1)
      await tab.close()
    }
  })

  it('edits a published post and publishes the change; the site shows it', async () => {
    const id = created.Fiction
    await openPost(id)
    await page.getByTestId('field-title').locator('input').fill('A Fiction story, revised')
    await eventually(() => doc(`drafts.${id}`), (d) => d?.title === 'A Fiction story, revised', 'the draft')
    await publish(id, 'A Fiction story, revised')
    const site = await sitePage(`/blog/${slugOf('A Fiction story')}`)
    await expect(site.getByRole('heading', {level: 1, name: 'A Fiction story, revised'}).count()).resolves.toBe(1)
    await site.close()
  })

  it('opens Review changes and restores an earlier revision', async () => {
    const id = created.Fiction
    await openPost(id)
    await page.getByTestId('pane-context-menu-button').last().click()
    await page.getByTestId('action-history').click()
    await page.getByRole('tab', {name: 'Review changes'}).click()
    await expect(page.locator('#review-panel').getByText('Title').first().isVisible()).resolves.toBe(true)
    await page.getByRole('tab', {name: 'History'}).click()
    // Newest first: the oldest "Published" entry is the first publish, with the first title.
    await page.getByTestId('timeline-item-button').filter({hasText: 'Published'}).last().click()
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid="field-title"] input')?.value === 'A Fiction story')
    await page.getByTestId('action-reverttorevision').click()
    await page.getByRole('button', {name: 'Confirm'}).click()
    await eventually(() => doc(`drafts.${id}`), (d) => d?.title === 'A Fiction story', 'the restored draft')
    await openPost(id)
    await publish(id, 'A Fiction story')
  })

  it('uploads an image; the lake stores the asset and serves it resized', async () => {
    const id = created.Mountaineering
    await openPost(id)
    const png = await sharp({create: {width: 64, height: 48, channels: 3, background: '#c33'}}).png().toBuffer()
    await page.locator('input[type=file]').first().setInputFiles({name: 'summit.png', mimeType: 'image/png', buffer: png})
    const draft = await eventually(() => doc(`drafts.${id}`) as (Post & {mainImage?: {asset?: {_ref: string}}}) | undefined, (d) => Boolean(d?.mainImage?.asset?._ref), 'the image reference')
    const ref = draft?.mainImage?.asset?._ref ?? ''
    expect(ref).toMatch(/^image-[0-9a-f]{40}-64x48-png$/)
    expect(server.lake?.getDocument(ref)).toMatchObject({_type: 'sanity.imageAsset', mimeType: 'image/png', originalFilename: 'summit.png', metadata: {dimensions: {width: 64, height: 48}}})
    const preview = page.locator('img[src*="/images/scriptorium/production/"]').first()
    await preview.waitFor()
    await expect(preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true)
    await publish(id, 'A Mountaineering story')
  })

  it('discards a draft', async () => {
    const id = created.Motorcycles
    await openPost(id)
    await page.getByTestId('field-title').locator('input').fill('A Motorcycles story, unfinished')
    await eventually(() => doc(`drafts.${id}`), (d) => d?.title === 'A Motorcycles story, unfinished', 'the draft')
    await waitForPublishable(page)
    await chooseFromActionMenu(page, 'action-Discardchanges')
    await page.getByTestId('confirm-button').click()
    await eventually(() => doc(`drafts.${id}`), (d) => d === undefined, 'the draft to be discarded')
    expect(doc(id)?.title).toBe('A Motorcycles story')
  })

  it('unpublishes a post: the site says Post not found.', async () => {
    const id = created.Kashmir
    await openPost(id)
    await setPerspective(page, 'published')
    await page.getByTestId('action-unpublish').click()
    await page.getByTestId('confirm-button').click()
    await eventually(() => doc(id), (d) => d === undefined, 'the post to be unpublished')
    expect(doc(`drafts.${id}`)?.title).toBe('A Kashmir story')
    await setPerspective(page, 'drafts')
    const path = `/blog/${slugOf('A Kashmir story')}`
    watch.expectNotFound(`${server.url}${path}`)
    const site = await context.newPage()
    const response = await site.goto(`${server.url}${path}`)
    expect(response?.status()).toBe(404)
    await expect(site.getByText('Post not found.').count()).resolves.toBe(1)
    await site.close()
  })

  it('deletes a post', async () => {
    const id = created.General
    await openPost(id)
    await chooseFromActionMenu(page, 'action-Delete')
    await page.getByTestId('confirm-button').click()
    await eventually(() => doc(id) ?? doc(`drafts.${id}`), (d) => d === undefined, 'the post to be deleted')
  })

  it("runs the site's post-list query in Vision and sees the posts", async () => {
    const queries: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/data/query/')) queries.push(request.url())
    })
    await goInStudio(page, '/studio/vision')
    const editor = page.getByTestId('vision-query-editor').locator('.cm-content')
    await editor.click()
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Delete')
    await page.keyboard.insertText(postListQuery)
    await page.keyboard.press('Control+Enter')
    const result = page.getByTestId('vision-result')
    await result.getByText('A Fiction story').first().waitFor()
    for (const title of ['A Fiction story', 'A Mountaineering story', 'A Motorcycles story']) {
      await expect(result.getByText(title).count()).resolves.toBeGreaterThan(0)
    }
    expect(queries.some((url) => url.includes('/v2023-07-29/data/query/production'))).toBe(true)
  })

  it('made no request beyond loopback and the three known hosts, and logged no other console error', () => {
    expect(watch.foreignRequests).toEqual([])
    expect(watch.consoleErrors).toEqual([])
  })
})
