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
import type {PostSource} from './postSource.ts'
import {categoryRef, siteCopyDocuments} from './siteCopy.ts'
import {toBlock, type Block} from './richText.ts'
import {seedAssetDocuments, toImageValue, type ImageValue} from './seedImages.ts'
import type {Doc} from '../server/lake/index.ts'

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
  category: {_type: string; _ref: string}
  mainImage?: ImageValue
  body: (Block | ImageValue)[]
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

/** The image files a post shows, cover first. */
function imageFiles(post: PostSource): string[] {
  const body = post.body.flatMap((block) => ('kind' in block ? [block.file] : []))
  return post.cover ? [post.cover.file, ...body] : body
}

/** `assetIds` maps each file of content/images/ to its `sanity.imageAsset` id. */
export function toDocument(post: PostSource, assetIds: Map<string, string>): PostDocument {
  const assetId = (file: string) => {
    const id = assetIds.get(file)
    if (!id) throw new Error(`${post.slug}: no asset for content/images/${file}`)
    return id
  }
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
    category: categoryRef(post.category),
    ...(post.cover ? {mainImage: toImageValue(post.cover, assetId(post.cover.file))} : {}),
    body: post.body.map((block, index) =>
      'kind' in block
        ? toImageValue(block, assetId(block.file), `${post.slug}/${index}`)
        : toBlock(block, `${post.slug}/${index}`),
    ),
  }
}

/** A revision id for a document of the site's copy, derived from its content. */
function copyRevision(doc: object): string {
  const digest = createHash('sha256').update(JSON.stringify(doc)).digest('base64')
  return digest.replace(/[^A-Za-z0-9]/g, '').slice(0, 22)
}

/**
 * The NDJSON text: the image assets the posts show (as the lake's upload describes them), the
 * site's copy (settings, home, services, categories, testimonials: content/siteCopy.ts), then the
 * posts, newest first, as an export sorted by date would list them.
 */
export async function buildSeed(posts: PostSource[] = postSources): Promise<string> {
  const sorted = [...posts].sort((a, b) => b.date.localeCompare(a.date))
  const oldest = sorted.at(-1)?.date ?? '2019-01-01'
  const assets = await seedAssetDocuments(sorted.flatMap(imageFiles), `${oldest}T08:00:00Z`)
  const assetIds = new Map([...assets].map(([file, doc]) => [file, doc._id]))
  const docs: (Doc | PostDocument)[] = [
    ...assets.values(),
    ...siteCopyDocuments.map((doc) => ({
      ...doc,
      _rev: copyRevision(doc),
      _createdAt: `${oldest}T08:00:00Z`,
      _updatedAt: `${oldest}T08:00:00Z`,
    })),
    ...sorted.map((post) => toDocument(post, assetIds)),
  ]
  return docs.map((doc) => JSON.stringify(doc)).join('\n') + '\n'
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await buildSeed()
  writeFileSync(seedPath, text)
  console.log(`Wrote ${text.trimEnd().split('\n').length} documents to ${seedPath}`)
}
