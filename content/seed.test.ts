import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {postCategories} from '../schemas/categories.ts'
import {parseNdjson, type Doc} from '../server/lake/index.ts'
import {buildSeed, seedPath, type PostDocument} from './build-seed.ts'
import {longformPosts} from './posts/longform.ts'
import type {Block} from './richText.ts'

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
    postCategories.some((category) => category === doc.category) &&
    Array.isArray(doc.body)
  )
}

const text = readFileSync(seedPath, 'utf8')
const docs = parseNdjson(text)
const posts = docs.filter(isPost)
const blocks = posts.flatMap((post) => post.body)
const spans = blocks.flatMap((block) => block.children)
const links = blocks.flatMap((block) => block.markDefs)

const plainText = (body: Block[]) =>
  body.map((block) => block.children.map((span) => span.text).join('')).join('\n\n')
const wordCount = (body: Block[]) => plainText(body).split(/\s+/).filter(Boolean).length

describe('content/seed.ndjson', () => {
  it('is exactly what content/build-seed.ts generates (run `node content/build-seed.ts`)', () => {
    expect(text).toBe(buildSeed())
  })

  it('holds at least 20 published posts and nothing else', () => {
    expect(posts.length).toBeGreaterThanOrEqual(20)
    expect(posts.length).toBe(docs.length)
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
    for (const post of posts) counts.set(post.category, (counts.get(post.category) ?? 0) + 1)
    expect([...counts.keys()].sort()).toEqual([...postCategories].sort())
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
      expect(wordCount(post.body), post.slug.current).toBeGreaterThanOrEqual(120)
      expect(wordCount(post.body), post.slug.current).toBeLessThanOrEqual(500)
      // The post page's meta description is the body's first 151 characters of plain text.
      expect(post.body[0]).toMatchObject({style: 'normal'})
      expect(post.body[0].listItem).toBeUndefined()
    }
  })

  it('has a long read: over 1,200 words, 3+ headings of two levels, opening with a paragraph', () => {
    const long = posts.filter((p) => longReads.has(p.slug.current))
    expect(long).toHaveLength(1)
    for (const post of long) {
      expect(wordCount(post.body), post.slug.current).toBeGreaterThan(1200)
      const headings = post.body.filter((block) => /^h[1-6]$/.test(block.style))
      expect(headings.length).toBeGreaterThanOrEqual(3)
      expect(new Set(headings.map((block) => block.style)).size).toBeGreaterThanOrEqual(2)
      expect(post.body[0]).toMatchObject({style: 'normal'})
    }
  })

  it('uses keys that are unique within each body', () => {
    for (const post of posts) {
      const keys = post.body.flatMap((block) => [
        block._key,
        ...block.children.map((span) => span._key),
        ...block.markDefs.map((def) => def._key),
      ])
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

  it('leaves no authoring markup in the published text', () => {
    for (const span of spans) expect(span.text).not.toMatch(/\*|`|~~|__|\]\(/)
  })
})
