import type {BrowserContext, Page} from 'playwright-core'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {categoryId} from '../content/siteCopy.ts'
import {postCategories} from '../schemas/categories.ts'
import {postListQuery} from '../web/queries.ts'
import {
  chooseFromActionMenu,
  createFromMenu,
  fillPostFields,
  logIn,
  runInVision,
  setPerspective,
  startStudio,
  uploadPhoto,
  waitForPublishable,
  waitForTitle,
  type StudioUnderTest,
} from './studio-driver.ts'
import type {TestServer} from '../test/support/server.ts'
import {pasteRichBody, typeRichBody} from './studio-editor.ts'
import {
  expectOnBlog,
  expectRichBody,
  hasLink,
  LakeView,
  openPost,
  publish,
  publishCategories,
  slugOf,
  wholeBody,
} from './studio-lake.ts'

let running: StudioUnderTest
let server: TestServer
let context: BrowserContext
let page: Page
let watch: StudioUnderTest['watch']
let lake: LakeView
const created: Record<string, string> = {}

async function sitePage(path: string): Promise<Page> {
  const site = await context.newPage()
  await site.goto(`${server.url}${path}`)
  return site
}

describe('the embedded Studio on the local lake', () => {
  beforeAll(async () => {
    running = await startStudio({SEED: '0'})
    ;({server, context, watch, page} = running)
    lake = new LakeView(server.lake)
    await publishCategories(server.lake)
  })

  afterAll(async () => {
    await running?.stop()
  })

  it('logs in through the login page and lands in the structure over HTTPS', async () => {
    await logIn(page, server.url, server.lake?.token ?? '')
    expect(new URL(page.url()).origin).toBe(server.httpsUrl)
    // Posts by category lists the categories (documents since docs/site-editing.md).
    await page.getByTestId('pane-item-Posts by category').click()
    for (const category of postCategories)
      await page
        .locator('[data-testid^="pane-item-"]')
        .filter({hasText: category})
        .first()
        .waitFor()
  })

  it(
    'creates and publishes a post in every category with every style and mark; the site shows each in its tab',
    {timeout: 240_000},
    async () => {
      for (const category of postCategories) {
        const title = `A ${category} story`
        // The global create menu offers the owner's documents only: the Inbox's messages and the
        // newsletter's documents come from the server, and the singletons exist once.
        const {offered, id} = await createFromMenu(page, 'Post')
        expect(offered).toEqual(['Category', 'Post', 'Redirect', 'Testimonial'])
        expect(id).not.toBe('')
        await fillPostFields(page, {
          title,
          date: `2024-0${postCategories.indexOf(category) + 1}-15`,
          excerpt: `Excerpt of the ${category} story.`,
          category,
        })
        const href = `https://example.com/${category.toLowerCase()}`
        // The first body through the editor's toolbar and keys; the others pasted (much faster).
        if (category === postCategories[0]) {
          const linkStored = () => lake.until(`drafts.${id}`, hasLink(href), 'the link')
          await typeRichBody(page, category, href, linkStored)
        } else {
          await pasteRichBody(page, category, href)
        }
        created[category] = id
        // Publish what was entered: the editor saves its last keystrokes a moment after them.
        await lake.until(`drafts.${id}`, wholeBody(category), 'the whole body')
        await publish(page, lake, id, title)

        const stored = lake.doc(id)
        expect(stored?.slug?.current).toBe(slugOf(title))
        expect(stored?.category).toEqual({_type: 'reference', _ref: categoryId(category)})
        expectRichBody(stored, href)
      }
      // The site's own list query, anonymously through the lake's HTTP API.
      const list = await fetch(
        `${server.url}/v2023-07-29/data/query/production?query=${encodeURIComponent(postListQuery)}`,
      )
      const {result} = (await list.json()) as {result: Array<{title: string; category: string}>}
      expect(result.map((p) => p.category).sort()).toEqual([...postCategories].sort())

      for (const category of postCategories) {
        const tab = await context.newPage()
        await expectOnBlog(
          tab,
          server.url,
          category,
          `https://example.com/${category.toLowerCase()}`,
        )
        await tab.close()
      }
    },
  )

  it('edits a published post and publishes the change; the site shows it', async () => {
    const id = created.Fiction
    await openPost(page, lake, id)
    await page.getByTestId('field-title').locator('input').fill('A Fiction story, revised')
    await lake.until(`drafts.${id}`, (d) => d?.title === 'A Fiction story, revised', 'the draft')
    await publish(page, lake, id, 'A Fiction story, revised')
    const site = await sitePage(`/blog/${slugOf('A Fiction story')}`)
    await expect(
      site.getByRole('heading', {level: 1, name: 'A Fiction story, revised'}).count(),
    ).resolves.toBe(1)
    await site.close()
  })

  it('opens Review changes and restores an earlier revision', async () => {
    const id = created.Fiction
    await openPost(page, lake, id)
    await page.getByTestId('pane-context-menu-button').last().click()
    await page.getByTestId('action-history').click()
    await page.getByRole('tab', {name: 'Review changes'}).click()
    await expect(
      page.locator('#review-panel').getByText('Title').first().isVisible(),
    ).resolves.toBe(true)
    await page.getByRole('tab', {name: 'History'}).click()
    // Newest first: the oldest "Published" entry is the first publish, with the first title.
    await page.getByTestId('timeline-item-button').filter({hasText: 'Published'}).last().click()
    await waitForTitle(page, 'A Fiction story')
    await page.getByTestId('action-reverttorevision').click()
    await page.getByRole('button', {name: 'Confirm'}).click()
    await lake.until(`drafts.${id}`, (d) => d?.title === 'A Fiction story', 'the restored draft')
    await openPost(page, lake, id)
    await publish(page, lake, id, 'A Fiction story')
  })

  it(
    'uploads a cover (alt set) and an inline image (caption set), publishes; the site, share card, blog and feed show them',
    {timeout: 240_000},
    async () => {
      const id = created.Mountaineering
      const title = 'A Mountaineering story'
      await openPost(page, lake, id)
      const coverField = await uploadPhoto(page, 'mainImage', {
        fileName: 'summit.jpg',
        width: 1600,
        height: 1000,
        color: '#3a6ea5',
      })
      const withCover = await lake.until(
        `drafts.${id}`,
        (d) => Boolean(d?.mainImage?.asset?._ref),
        'the cover reference',
      )
      const ref = withCover?.mainImage?.asset?._ref ?? ''
      expect(ref).toMatch(/^image-[0-9a-f]{40}-1600x1000-jpg$/)
      expect(server.lake?.getDocument(ref)).toMatchObject({
        _type: 'sanity.imageAsset',
        mimeType: 'image/jpeg',
        originalFilename: 'summit.jpg',
        metadata: {dimensions: {width: 1600, height: 1000}, isOpaque: true},
      })
      // Alt text is required once an image is set (schemas/objects/postImage.ts).
      await coverField.getByLabel('Alternative text').fill('A blue sky over the summit ridge')
      await lake.until(
        `drafts.${id}`,
        (d) => d?.mainImage?.alt === 'A blue sky over the summit ridge',
        'the cover’s alt text',
      )

      // The inline image: the body's insert button, then the image's own dialog.
      const inline = await sharp({
        create: {
          width: 900,
          height: 600,
          channels: 4,
          background: {r: 200, g: 40, b: 40, alpha: 0.5},
        },
      })
        .png()
        .toBuffer()
      await page.getByTestId('field-body').locator('[contenteditable="true"]').first().click()
      await page
        .getByTestId('pt-editor__toolbar-card')
        .getByRole('button', {name: /Insert Image/})
        .first()
        .click()
      const dialog = page.getByRole('dialog').last()
      await dialog
        .locator('input[type=file]')
        .first()
        .setInputFiles({name: 'tent.png', mimeType: 'image/png', buffer: inline})
      await lake.until(
        `drafts.${id}`,
        (d) => Boolean(d?.body?.some((b) => b._type === 'image' && b.asset?._ref)),
        'the inline image',
      )
      await dialog.getByLabel('Alternative text').fill('A red tent, half see-through')
      await dialog.getByLabel('Caption').fill('Camp two, at dusk.')
      await lake.until(
        `drafts.${id}`,
        (d) =>
          Boolean(d?.body?.some((b) => b._type === 'image' && b.caption === 'Camp two, at dusk.')),
        'the inline image’s caption',
      )
      await page.keyboard.press('Escape')
      await publish(page, lake, id, title)

      const site = await sitePage(`/blog/${slugOf(title)}`)
      const imgs = await site.$$eval('article figure img', (nodes) =>
        nodes.map((img) => ({
          alt: img.getAttribute('alt'),
          width: img.getAttribute('width'),
          height: img.getAttribute('height'),
          srcset: img.getAttribute('srcset') ?? '',
        })),
      )
      expect(imgs).toEqual([
        {
          alt: 'A blue sky over the summit ridge',
          width: '720',
          height: '450',
          srcset: expect.stringContaining(' 1600w'),
        },
        {
          alt: 'A red tent, half see-through',
          width: '720',
          height: '480',
          srcset: expect.stringContaining(' 900w'),
        },
      ])
      await expect(site.getByText('Camp two, at dusk.').count()).resolves.toBe(1)
      const ogImage =
        (await site.$eval('meta[property="og:image"]', (m) => m.getAttribute('content'))) ?? ''
      const share = await fetch(ogImage.replace(server.config.siteUrl, server.url))
      expect(await sharp(Buffer.from(await share.arrayBuffer())).metadata()).toMatchObject({
        width: 1200,
        height: 630,
      })
      await site.goto(`${server.url}/blog?category=Mountaineering`)
      // The thumbnail (the list's first card: fetched eagerly, web/components/PostList.tsx).
      await expect(site.locator('article img[width="480"][height="270"]').count()).resolves.toBe(1)
      await site.close()
      const rss = await (await fetch(`${server.url}/rss.xml`)).text()
      const item = rss.split('<item>').find((part) => part.includes(slugOf(title))) ?? ''
      expect(item).toContain(`<img src="${server.config.siteUrl}/images/scriptorium/production/`)
      expect(item).toContain('<enclosure ')
    },
  )

  it('discards a draft', async () => {
    const id = created.Motorcycles
    await openPost(page, lake, id)
    await page.getByTestId('field-title').locator('input').fill('A Motorcycles story, unfinished')
    await lake.until(
      `drafts.${id}`,
      (d) => d?.title === 'A Motorcycles story, unfinished',
      'the draft',
    )
    await waitForPublishable(page)
    await chooseFromActionMenu(page, 'action-Discardchanges')
    await page.getByTestId('confirm-button').click()
    await lake.until(`drafts.${id}`, (d) => d === undefined, 'the draft to be discarded')
    expect(lake.doc(id)?.title).toBe('A Motorcycles story')
  })

  it('unpublishes a post: the site says Post not found.', async () => {
    const id = created.Kashmir
    await openPost(page, lake, id)
    await setPerspective(page, 'published')
    await page.getByTestId('action-unpublish').click()
    await page.getByTestId('confirm-button').click()
    await lake.until(id, (d) => d === undefined, 'the post to be unpublished')
    expect(lake.doc(`drafts.${id}`)?.title).toBe('A Kashmir story')
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
    await openPost(page, lake, id)
    await chooseFromActionMenu(page, 'action-Delete')
    await page.getByTestId('confirm-button').click()
    await lake.until(id, (d) => d === undefined, 'the published post to be deleted')
    await lake.until(`drafts.${id}`, (d) => d === undefined, 'its draft to be deleted')
  })

  it("runs the site's post-list query in Vision and sees the posts", async () => {
    const queries: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/data/query/')) queries.push(request.url())
    })
    await runInVision(page, postListQuery)
    const result = page.getByTestId('vision-result')
    await result.getByText('A Fiction story').first().waitFor()
    for (const title of ['A Fiction story', 'A Mountaineering story', 'A Motorcycles story']) {
      await expect(result.getByText(title).count()).resolves.toBeGreaterThan(0)
    }
    expect(queries.some((url) => url.includes('/v2023-07-29/data/query/production'))).toBe(true)
  })

  it('made no request beyond loopback, and logged no console error', () => {
    expect(watch.foreignRequests).toEqual([])
    expect(watch.consoleErrors).toEqual([])
  })
})
