import {createHash} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import sharp from 'sharp'
import {describe, expect, it} from 'vitest'
import {postCategories} from '../schemas/categories.ts'
import {parseNdjson, type Doc} from '../server/lake/index.ts'
import {buildSeed, seedPath, type PostDocument} from './build-seed.ts'
import {categoryId, siteCopyDocuments} from './siteCopy.ts'
import {longformPosts} from './posts/longform.ts'
import type {Block} from './richText.ts'
import {seedImagesDir, type ImageValue} from './seedImages.ts'

const longReads = new Set(longformPosts.map((post) => post.slug))

// What the post schema (schemas/objects/blockContent.ts) allows, which the seed must all show.
const styles = ['normal', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']
const lists = ['bullet', 'number']
const decorators = ['strong', 'em', 'code', 'underline', 'strike-through']

/** The post fields the site reads, with the right types; the tests below check the details. */
function isPost(doc: Doc): doc is Doc & PostDocument {
  const slug = doc.slug
  return (
    doc._type === 'post' &&
    typeof doc.title === 'string' &&
    typeof slug === 'object' &&
    slug !== null &&
    'current' in slug &&
    typeof slug.current === 'string' &&
    typeof doc.date === 'string' &&
    typeof doc.excerpt === 'string' &&
    typeof doc.category === 'object' &&
    doc.category !== null &&
    '_ref' in doc.category &&
    typeof doc.category._ref === 'string' &&
    Array.isArray(doc.body)
  )
}

const isBlock = (block: Block | ImageValue): block is Block => block._type === 'block'
const textOf = (post: PostDocument) => post.body.filter(isBlock)

const text = readFileSync(seedPath, 'utf8')
const docs = parseNdjson(text)
const posts = docs.filter(isPost)
const assets = docs.filter((doc) => doc._type === 'sanity.imageAsset')
const copy = docs.filter((doc) => siteCopyDocuments.some((c) => c._id === doc._id))
const blocks = posts.flatMap(textOf)
const spans = blocks.flatMap((block) => block.children)
const links = blocks.flatMap((block) => block.markDefs)

const plainText = (body: Block[]) =>
  body
    .filter(isBlock)
    .map((block) => block.children.map((span) => span.text).join(''))
    .join('\n\n')
const wordCount = (body: Block[]) => plainText(body).split(/\s+/).filter(Boolean).length

describe('content/seed.ndjson', () => {
  it('is exactly what content/build-seed.ts generates (run `node content/build-seed.ts`)', async () => {
    expect(text).toBe(await buildSeed())
  })

  it("holds at least 20 published posts, the image assets they show and the site's copy, nothing else", () => {
    expect(posts.length).toBeGreaterThanOrEqual(20)
    expect(copy.map((doc) => doc._id)).toEqual(siteCopyDocuments.map((doc) => doc._id))
    expect(posts.length + assets.length + copy.length).toBe(docs.length)
    for (const post of posts) {
      expect(post._type).toBe('post')
      expect(post._id).not.toContain('.')
    }
  })

  it('gives every post unique ids and kebab-case slugs, the id derived from the slug', () => {
    const slugs = posts.map((post) => post.slug.current)
    expect(new Set(slugs).size).toBe(posts.length)
    expect(new Set(posts.map((post) => post._id)).size).toBe(posts.length)
    for (const post of posts) {
      expect(post.slug._type).toBe('slug')
      expect(post.slug.current).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(post._id).toBe(`post-${post.slug.current}`)
      expect(post.title.trim()).not.toBe('')
    }
  })

  it('looks like a real export: system fields with second precision, 22-character revisions', () => {
    for (const post of posts) {
      expect(post._rev).toMatch(/^[A-Za-z0-9]{22}$/)
      expect(post._createdAt).toBe(`${post.date}T09:00:00Z`)
      expect(post._updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    }
  })

  it('files every post under a blog category, every category has posts and one has seven or more', () => {
    const counts = new Map<string, number>()
    for (const post of posts)
      counts.set(post.category._ref, (counts.get(post.category._ref) ?? 0) + 1)
    expect([...counts.keys()].sort()).toEqual(postCategories.map(categoryId).sort())
    for (const id of counts.keys()) expect(copy.some((doc) => doc._id === id)).toBe(true)
    expect(Math.max(...counts.values())).toBeGreaterThanOrEqual(7)
  })

  it('dates the posts with real calendar dates spread over at least three years', () => {
    for (const post of posts) {
      expect(post.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(new Date(`${post.date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(post.date)
    }
    const years = posts.map((post) => Number(post.date.slice(0, 4)))
    expect(Math.max(...years) - Math.min(...years)).toBeGreaterThanOrEqual(3)
  })

  it('keeps every excerpt between 1 and 200 characters', () => {
    for (const post of posts) {
      expect(post.excerpt.length, post.slug.current).toBeGreaterThan(0)
      expect(post.excerpt.length, post.slug.current).toBeLessThanOrEqual(200)
    }
  })

  it('gives every post a body of substance: 3–8 blocks, 120–500 words, opening with a paragraph', () => {
    for (const post of posts.filter((p) => !longReads.has(p.slug.current))) {
      expect(post.body.length, post.slug.current).toBeGreaterThanOrEqual(3)
      expect(post.body.length, post.slug.current).toBeLessThanOrEqual(8)
      expect(wordCount(textOf(post)), post.slug.current).toBeGreaterThanOrEqual(120)
      expect(wordCount(textOf(post)), post.slug.current).toBeLessThanOrEqual(500)
      // The post page's meta description is the body's first 151 characters of plain text.
      expect(post.body[0]).toMatchObject({style: 'normal'})
      expect(textOf(post)[0].listItem).toBeUndefined()
    }
  })

  it('has a long read: over 1,200 words, 3+ headings of two levels, opening with a paragraph', () => {
    const long = posts.filter((p) => longReads.has(p.slug.current))
    expect(long).toHaveLength(1)
    for (const post of long) {
      expect(wordCount(textOf(post)), post.slug.current).toBeGreaterThan(1200)
      const headings = textOf(post).filter((block) => /^h[1-6]$/.test(block.style))
      expect(headings.length).toBeGreaterThanOrEqual(3)
      expect(new Set(headings.map((block) => block.style)).size).toBeGreaterThanOrEqual(2)
      expect(post.body[0]).toMatchObject({style: 'normal'})
    }
  })

  it('uses keys that are unique within each body', () => {
    for (const post of posts) {
      const keys = post.body.flatMap((block) =>
        isBlock(block)
          ? [
              block._key,
              ...block.children.map((span) => span._key),
              ...block.markDefs.map((def) => def._key),
            ]
          : [block._key],
      )
      expect(new Set(keys).size, post.slug.current).toBe(keys.length)
    }
  })

  it('writes well-formed Portable Text: known styles and lists, marks that resolve', () => {
    for (const block of blocks) {
      expect(block._type).toBe('block')
      expect(styles).toContain(block.style)
      if (block.listItem !== undefined) {
        expect(lists).toContain(block.listItem)
        expect(block.level).toBe(1)
      }
      const defKeys = block.markDefs.map((def) => def._key)
      for (const span of block.children) {
        expect(span._type).toBe('span')
        expect(span.text).not.toBe('')
        for (const mark of span.marks) expect([...decorators, ...defKeys]).toContain(mark)
      }
      for (const key of defKeys)
        expect(block.children.some((span) => span.marks.includes(key))).toBe(true)
    }
  })

  it('shows every block style, list type, decorator and link kind across the posts', () => {
    expect(new Set(blocks.map((block) => block.style))).toEqual(new Set(styles))
    expect(new Set(blocks.map((block) => block.listItem).filter(Boolean))).toEqual(new Set(lists))
    const marks = new Set(spans.flatMap((span) => span.marks))
    for (const decorator of decorators) expect(marks).toContain(decorator)
    expect(links.some((link) => link.href.startsWith('https://'))).toBe(true)
    expect(links.some((link) => link.href.startsWith('mailto:'))).toBe(true)
  })

  it('links only to http(s) and mailto addresses', () => {
    expect(links.length).toBeGreaterThan(0)
    for (const link of links) {
      expect(link._type).toBe('link')
      expect(['http:', 'https:', 'mailto:']).toContain(new URL(link.href).protocol)
    }
  })

  it('gives at least 6 posts a cover and 2 an image in the body, each with alt or marked decorative', () => {
    const covers = posts.flatMap((post) => (post.mainImage ? [post.mainImage] : []))
    const inline = posts.filter((post) => post.body.some((block) => !isBlock(block)))
    expect(covers.length).toBeGreaterThanOrEqual(6)
    expect(inline.length).toBeGreaterThanOrEqual(2)
    const images = [...covers, ...inline.flatMap((post) => post.body.filter((b) => !isBlock(b)))]
    for (const image of images) {
      expect(image.decorative === true || (image.alt ?? '').trim() !== '').toBe(true)
      expect(image.caption?.length ?? 0).toBeLessThanOrEqual(200)
      expect(assets.map((asset) => asset._id)).toContain(image.asset._ref)
    }
  })

  it('ships each asset’s file in content/images, among them a JPEG turned by EXIF and a PNG with alpha', async () => {
    const facts = []
    for (const asset of assets) {
      const bytes = readFileSync(join(seedImagesDir, String(asset.originalFilename)))
      expect(createHash('sha1').update(bytes).digest('hex')).toBe(asset.assetId)
      expect(bytes.length).toBe(asset.size)
      expect(bytes.length).toBeLessThan(64 * 1024)
      facts.push(await sharp(bytes).metadata())
    }
    expect(facts.some((meta) => meta.format === 'jpeg' && meta.orientation === 6)).toBe(true)
    expect(facts.some((meta) => meta.format === 'png' && meta.hasAlpha)).toBe(true)
  })

  it('leaves no authoring markup in the published text', () => {
    for (const span of spans) expect(span.text).not.toMatch(/\*|`|~~|__|\]\(/)
  })
})
