/**
 * Builds content/seed.ndjson — the sample posts an empty lake is seeded with — from the
 * readable sources in content/posts/. Run `node content/build-seed.ts` after editing a post
 * and commit both; content/seed.test.ts fails if the two drift apart.
 */
import {createHash} from 'node:crypto'
import {writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fictionPosts} from './posts/fiction.ts'
import {generalPosts} from './posts/general.ts'
import {kashmirPosts} from './posts/kashmir.ts'
import {longformPosts} from './posts/longform.ts'
import {motorcyclePosts} from './posts/motorcycles.ts'
import {mountaineeringPosts} from './posts/mountaineering.ts'
import type {PostCategory} from '../schemas/categories.ts'
import type {PostSource} from './postSource.ts'
import {toBlock, type Block} from './richText.ts'

/** A post as `sanity dataset export` writes it. */
export interface PostDocument {
  _id: string
  _type: 'post'
  _rev: string
  _createdAt: string
  _updatedAt: string
  title: string
  slug: {_type: 'slug'; current: string}
  date: string
  excerpt: string
  category: PostCategory
  body: Block[]
}

export const seedPath = fileURLToPath(new URL('./seed.ndjson', import.meta.url))

export const postSources: PostSource[] = [
  ...kashmirPosts,
  ...fictionPosts,
  ...mountaineeringPosts,
  ...motorcyclePosts,
  ...generalPosts,
  ...longformPosts,
]

/** A 22-character revision id in the alphabet Sanity uses, derived from the post. */
function revisionFor(post: PostSource): string {
  const digest = createHash('sha256').update(JSON.stringify(post)).digest('base64')
  return digest.replace(/[^A-Za-z0-9]/g, '').slice(0, 22)
}

export function toDocument(post: PostSource): PostDocument {
  // A fixed time of day keeps the output identical from one build to the next.
  const timestamp = `${post.date}T09:00:00Z`
  return {
    _id: `post-${post.slug}`,
    _type: 'post',
    _rev: revisionFor(post),
    _createdAt: timestamp,
    _updatedAt: timestamp,
    title: post.title,
    slug: {_type: 'slug', current: post.slug},
    date: post.date,
    excerpt: post.excerpt,
    category: post.category,
    body: post.body.map((block, index) => toBlock(block, `${post.slug}/${index}`)),
  }
}

/** The NDJSON text: newest post first, as an export sorted by date would list them. */
export function buildSeed(posts: PostSource[] = postSources): string {
  const sorted = [...posts].sort((a, b) => b.date.localeCompare(a.date))
  return sorted.map((post) => JSON.stringify(toDocument(post))).join('\n') + '\n'
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = buildSeed()
  writeFileSync(seedPath, text)
  console.log(`Wrote ${text.trimEnd().split('\n').length} posts to ${seedPath}`)
}
