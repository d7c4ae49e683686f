import type {SocialContent} from './socialContent.ts'
import type {PostBody} from '../util/postHtml.ts'
import type {PostImage} from '../../shared/imageUrl.ts'

/**
 * The posts the social web sees: published (no draft, no release version: both have private
 * ids), with a slug, and not turned off with the post's "Share to the social web" switch
 * (`socialWeb`, schemas/documents/post.ts; missing means on).
 */
export const sharedPostsFilter = `_type == "post" && defined(slug.current) && !(_id in path("drafts.**")) && !(_id in path("versions.**")) && socialWeb != false`

// The category is a reference to its document (issue #37): the hashtag is its title; an old
// post's plain string still reads as itself.
const articleFields = `{
  _id, _updatedAt, title, "slug": slug.current, date, excerpt,
  "category": coalesce(category->title, string(category)),
  "categorySlug": coalesce(category->slug.current, string(category)), body,
  "cover": mainImage{"asset": asset->{_id}, crop, hotspot, alt, decorative}
}`

/** A post as its `Article` needs it. */
export interface SharedPost {
  _id: string
  _updatedAt: string
  title: string | null
  slug: string
  date: string | null
  excerpt: string | null
  /** The category's title (a reference since docs/site-editing.md; a string before the upgrade). */
  category: string | null
  /** The category's tab (`/blog?category=<slug>`). */
  categorySlug: string | null
  body: PostBody | null
  cover: PostImage | null
}

/** A post's version, enough to tell a first publish, an edit and an unpublish apart. */
export interface PostVersion {
  _id: string
  _rev: string
  _updatedAt: string
}

const read = <T>(content: SocialContent, groq: string, params: Record<string, unknown> = {}) =>
  content.query<T>(groq, params)

/** One shared post by slug, or null (unpublished, turned off, unknown). */
export function sharedPostBySlug(content: SocialContent, slug: string): Promise<SharedPost | null> {
  return read(content, `*[${sharedPostsFilter} && slug.current == $slug][0]${articleFields}`, {
    slug,
  })
}

/** One shared post by id, or null. */
export function sharedPostById(content: SocialContent, id: string): Promise<SharedPost | null> {
  return read(content, `*[${sharedPostsFilter} && _id == $id][0]${articleFields}`, {id})
}

/** A page of the outbox: newest first, `limit` from `offset`. */
export function sharedPostPage(
  content: SocialContent,
  offset: number,
  limit: number,
): Promise<SharedPost[]> {
  return read(
    content,
    `*[${sharedPostsFilter}] | order(date desc, _id asc)[$offset...$end]${articleFields}`,
    {offset, end: offset + limit},
  )
}

export function sharedPostCount(content: SocialContent): Promise<number> {
  return read(content, `count(*[${sharedPostsFilter}])`)
}

/** Every shared post's id and version: what publications.ts compares with what it sent. */
export function sharedPostVersions(content: SocialContent): Promise<PostVersion[]> {
  return read(content, `*[${sharedPostsFilter}]{_id, _rev, _updatedAt}`)
}
