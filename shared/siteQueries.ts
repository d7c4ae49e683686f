import {defineQuery} from 'groq'
import {excerptLength, fallbackExcerpt} from './constants.ts'

/**
 * Every GROQ query the site runs (requirements §7; web/queries.ts re-exports them for the site, the
 * server's discovery files import them from here). Posts are ordered by
 * date, newest first; `_id` breaks ties so that pages of the list never overlap or skip a post.
 */

/**
 * An image as the site draws it (shared/imageUrl.ts): the Studio's crop and hotspot for
 * @sanity/image-url, the asset's id (it names the upright size) and its blurred placeholder.
 */
const imageFields = /* groq */ `{
  crop, hotspot, alt, decorative, caption,
  "asset": asset->{_id, "metadata": metadata{lqip, isOpaque}}
}`

/**
 * The body's word count, for the reading time (web/reading/readingTime.ts): each text block's
 * plain text split at spaces (blocks apart, so paragraph breaks separate words too), blanks
 * dropped. 0 for an empty body, null for none.
 */
const bodyWords = /* groq */ `math::sum(body[_type == "block"]{"n": count(string::split(pt::text(@), " ")[@ != ""])}.n)`

/**
 * The fields of a post card, with the slug flattened to a string (requirements §3); `_id` names
 * the post for preview mode's overlays (web/preview/useSanityNode.ts).
 */
const postCardFields = /* groq */ `{_id, title, "slug": slug.current, date, excerpt, category, "words": ${bodyWords}, mainImage${imageFields}}`

/** The posts the site lists: a post needs a slug to have an address (requirements §7.1). */
export const listedPost = /* groq */ `_type == "post" && defined(slug.current)`

export const postOrder = /* groq */ `order(date desc, _id asc)`

/** The spec's list query: all posts by date descending (kept for the sitemap and feeds). */
export const postListQuery = defineQuery(`*[${listedPost}] | ${postOrder} ${postCardFields}`)

/** Page size of the blog list and the step of 'Load More' (requirements §9). */
export const blogPageSize = 6

/**
 * One page of a blog tab plus the tab's total. `$category` is null for Latest (every post) or a
 * category to match exactly; `$start`/`$end` is a half-open slice, so the first response carries
 * six posts whatever the blog's size.
 */
export const postPageQuery = defineQuery(`{
  "posts": *[${listedPost} && ($category == null || category == $category)] | ${postOrder} [$start...$end] ${postCardFields},
  "total": count(*[${listedPost} && ($category == null || category == $category)])
}`)

/**
 * One post by `$slug`, with the meta-description excerpt derived in GROQ by the rule in
 * shared/constants.ts (`derivedExcerpt`): the first `excerptLength` characters of the body's
 * plain text (GROQ has no substring, so split into characters, slice and join), or the fallback
 * when the body has no text. `_id` is for preview mode's overlays.
 */
export const postBySlugQuery = defineQuery(`*[_type == "post" && slug.current == $slug][0]{
  _id,
  title,
  date,
  _updatedAt,
  category,
  "words": ${bodyWords},
  mainImage${imageFields},
  body[]{..., _type == "image" => ${imageFields}},
  "excerpt": select(
    length(pt::text(body)) > 0 => array::join(string::split(pt::text(body), "")[0...${excerptLength}], ""),
    "${fallbackExcerpt}"
  )
}`)

/** How many posts of the same category a post page shows at its end. */
export const relatedPostCount = 3

/**
 * What surrounds the post `$slug`: the previous (older) and next (newer) posts in the blog's
 * order, and up to `relatedPostCount` other posts of its category, newest first. Ties on the date
 * are broken by `_id` as in `postOrder`, so walking previous links visits every post once.
 */
export const postSurroundingsQuery = defineQuery(`*[_type == "post" && slug.current == $slug][0]{
  "previous": *[${listedPost} && (date < ^.date || (date == ^.date && _id > ^._id))] | ${postOrder} [0]{title, "slug": slug.current},
  "next": *[${listedPost} && (date > ^.date || (date == ^.date && _id < ^._id))] | order(date asc, _id desc) [0]{title, "slug": slug.current},
  "related": *[${listedPost} && category == ^.category && _id != ^._id] | ${postOrder} [0...${relatedPostCount}] ${postCardFields}
}`)

/** How many of the newest posts Home's 'Latest writing' section shows. */
export const latestPostCount = 3

/** Home's lazily shown 'Latest writing' section: the newest posts. */
export const latestPostsQuery = defineQuery(
  `*[${listedPost}] | ${postOrder} [0...${latestPostCount}] ${postCardFields}`,
)

/** Every post's address and last change, for the sitemap (server/discovery). */
export const sitemapQuery = defineQuery(
  `*[${listedPost}] | ${postOrder} {"slug": slug.current, _updatedAt}`,
)

/** The newest `$limit` posts in full, for the RSS and Atom feeds (server/discovery). */
export const feedPostsQuery = defineQuery(`*[${listedPost}] | ${postOrder} [0...$limit] {
  _id, title, "slug": slug.current, date, excerpt, category, _updatedAt,
  mainImage${imageFields},
  body[]{..., _type == "image" => ${imageFields}}
}`)

/** Every listed post's path and title, for the Readers tool's pages table (server/stats). */
export const postTitlesQuery = defineQuery(`*[${listedPost}] {"slug": slug.current, title}`)

/**
 * A reader's search (docs/search.md): listed posts matching `$q` by `text::query()` in the title,
 * excerpt or body text, ranked by relevance (how often the words occur in each field, the title
 * weighing most, then the excerpt: docs/search.md, "Relevance"), newest first among equals;
 * `text` is the body's plain text, from which the page cuts a snippet.
 */
export const searchQuery = defineQuery(`{
  "posts": *[${listedPost} && [title, excerpt, pt::text(body)] match text::query($q)]
    | score(boost(title match text::query($q), 4), boost(excerpt match text::query($q), 2), pt::text(body) match text::query($q))
    | order(_score desc, date desc, _id asc) [$start...$end]
    {_id, title, "slug": slug.current, date, excerpt, category, "words": ${bodyWords}, mainImage${imageFields}, "text": pt::text(body)},
  "total": count(*[${listedPost} && [title, excerpt, pt::text(body)] match text::query($q)])
}`)
