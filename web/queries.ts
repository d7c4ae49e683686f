import {defineQuery} from 'groq'

/**
 * Every GROQ query the site runs (requirements §7). Posts are ordered by
 * date, newest first; `_id` breaks ties so that pages of the list never overlap or skip a post.
 */

/** The fields of a post card, with the slug flattened to a string (requirements §3). */
const postCardFields = /* groq */ `{title, "slug": slug.current, date, excerpt, category}`

const postOrder = /* groq */ `order(date desc, _id asc)`

/** The spec's list query: all posts by date descending (kept for the sitemap and feeds). */
export const postListQuery = defineQuery(
  `*[_type == "post" && defined(slug.current)] | ${postOrder} ${postCardFields}`,
)

/** Page size of the blog list and the step of 'Load More' (requirements §9). */
export const blogPageSize = 6

/**
 * One page of a blog tab plus the tab's total. `$category` is null for Latest (every post) or a
 * category to match exactly; `$start`/`$end` is a half-open slice, so the first response carries
 * six posts whatever the blog's size.
 */
export const postPageQuery = defineQuery(`{
  "posts": *[_type == "post" && defined(slug.current) && ($category == null || category == $category)] | ${postOrder} [$start...$end] ${postCardFields},
  "total": count(*[_type == "post" && defined(slug.current) && ($category == null || category == $category)])
}`)

/** The fallback meta description when a post has no body text (requirements §3). */
export const fallbackExcerpt = 'A blog post by a writer based in Kashmir.'

/**
 * One post by `$slug`, with the meta-description excerpt derived in GROQ: the first 151
 * characters of the body's plain text (GROQ has no substring, so split into characters, slice and
 * join), or the fallback when the body has no text.
 */
export const postBySlugQuery = defineQuery(`*[_type == "post" && slug.current == $slug][0]{
  title,
  date,
  body,
  "excerpt": select(
    length(pt::text(body)) > 0 => array::join(string::split(pt::text(body), "")[0...151], ""),
    "${fallbackExcerpt}"
  )
}`)

/** Home's lazily shown 'Latest writing' section: the three newest posts. */
export const latestPostsQuery = defineQuery(
  `*[_type == "post" && defined(slug.current)] | ${postOrder} [0...3] ${postCardFields}`,
)

/** Every post's address and last change, for the sitemap (server/discovery). */
export const sitemapQuery = defineQuery(
  `*[_type == "post" && defined(slug.current)] | ${postOrder} {"slug": slug.current, _updatedAt}`,
)

/** The newest `$limit` posts in full, for the RSS and Atom feeds (server/discovery). */
export const feedPostsQuery =
  defineQuery(`*[_type == "post" && defined(slug.current)] | ${postOrder} [0...$limit] {
  _id, title, "slug": slug.current, date, excerpt, category, body, _updatedAt
}`)
