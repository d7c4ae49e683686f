import type {Page} from 'playwright-core'
import {expect} from 'vitest'
import {categoriesCopy} from '../content/siteCopy.ts'
import type {Lake} from '../server/lake/index.ts'
import {goInStudio, waitForPublishable, waitForTitle} from './studio-driver.ts'
import {decorators, styles} from './studio-editor.ts'

export type Block = {
  _type?: string
  /** Image blocks (issue 22): their asset and caption; text blocks have children. */
  asset?: {_ref: string}
  caption?: string
  style?: string
  listItem?: string
  markDefs?: Array<{_key: string; href?: string}>
  children: Array<{text: string; marks: string[]}>
}

export type Post = {
  _id: string
  title: string
  slug?: {current: string}
  /** A reference to a category document (schemas/documents/post.ts). */
  category?: {_type?: string; _ref: string}
  body?: Block[]
  mainImage?: {asset?: {_ref: string}; alt?: string}
}

export const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-')

/**
 * Publishes the site's categories (content/siteCopy.ts) in a lake started without the seed, where
 * they are absent: a post's category is a reference the Studio can only pick among them.
 */
export async function publishCategories(lake: Lake | undefined): Promise<void> {
  await lake?.mutate(categoriesCopy.map((category) => ({createIfNotExists: category})))
}

/** What the Studio stored, read in process from the test server's lake. */
export class LakeView {
  private readonly lake: Lake | undefined

  constructor(lake: Lake | undefined) {
    this.lake = lake
  }

  doc(id: string): Post | undefined {
    return this.lake?.getDocument(id) as Post | undefined
  }

  /**
   * Polls until `check` holds for document `id`: the Studio commits asynchronously. A publish
   * waits for the Studio's validation of the whole document (its image assets included), which
   * on a busy two-core machine has taken over 30 s: `withinMs` gives it longer.
   */
  async until(
    id: string,
    check: (post: Post | undefined) => boolean,
    what: string,
    withinMs = 30_000,
  ): Promise<Post | undefined> {
    const deadline = Date.now() + withinMs
    for (;;) {
      const post = this.doc(id)
      if (check(post)) return post
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}: ${JSON.stringify(post)?.slice(0, 300)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/** Opens a post in the Studio and waits for its form (not the previous post's) to show it. */
export async function openPost(page: Page, lake: LakeView, id: string): Promise<void> {
  const title = (lake.doc(`drafts.${id}`) ?? lake.doc(id))?.title
  await goInStudio(page, `/studio/structure/posts;${id}`)
  await waitForTitle(page, title)
}

/** Publishes the open post and waits for the lake to hold it published, without a draft. */
export async function publish(page: Page, lake: LakeView, id: string, title: string) {
  await waitForPublishable(page)
  await page.getByTestId('action-publish').click()
  await lake.until(
    id,
    (post) => post?.title === title && !lake.doc(`drafts.${id}`),
    `"${title}" to be published`,
    90_000,
  )
}

const text = (block: Block | undefined) => block?.children.map((span) => span.text).join('')

/** The post holds a link to `href` (its annotation, with the href set). */
export const hasLink = (href: string) => (post: Post | undefined) =>
  Boolean(post?.body?.some((block) => block.markDefs?.some((mark) => mark.href === href)))

/** The draft holds the whole body `typeRichBody`/`pasteRichBody` entered, up to its last item. */
export const wholeBody = (label: string) => (post: Post | undefined) =>
  post?.body?.at(-1)?.listItem === 'number' &&
  text(post.body.at(-1)) === `A numbered item of ${label}`

/** A stored post has every style, both list kinds, every decorator and the one link. */
export function expectRichBody(post: Post | undefined, href: string): void {
  const blocks = post?.body ?? []
  expect(blocks.map((b) => b.style)).toEqual(expect.arrayContaining(styles.map(([, s]) => s)))
  expect(blocks.map((b) => b.listItem).filter(Boolean)).toEqual(['bullet', 'number'])
  const marks = blocks.flatMap((b) => b.children.flatMap((c) => c.marks))
  for (const [, mark] of decorators) expect(marks).toContain(mark)
  const links = blocks.flatMap((b) => b.markDefs ?? [])
  expect(links.map((m) => m.href)).toEqual([href])
  const linked = blocks.flatMap((b) => b.children.filter((c) => c.marks.includes(links[0]._key)))
  expect(linked.map((c) => c.text)).toEqual(['link'])
}

/** The site lists the category's post (alone) in its tab, and its page shows it with the link. */
export async function expectOnBlog(site: Page, siteUrl: string, category: string, href: string) {
  const title = `A ${category} story`
  await site.goto(`${siteUrl}/blog?category=${encodeURIComponent(category)}`)
  await expect(site.getByRole('link', {name: new RegExp(title)}).count()).resolves.toBe(1)
  await expect(site.getByText(/A \w+ story/).count()).resolves.toBe(1)
  await site.goto(`${siteUrl}/blog/${slugOf(title)}`)
  await expect(site.getByRole('heading', {level: 1, name: title}).count()).resolves.toBe(1)
  await expect(site.locator(`a[href="${href}"]`).count()).resolves.toBe(1)
}
