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
 * A post's category (a reference to a `category` document) as the site shows it: its title, and
 * the slug its tab's address carries. A post written before categories were documents holds the
 * title as a string (the start-time upgrade rewrites those, content/upgrade.ts), which reads the
 * same: the seed's slugs are those titles.
 */
const categoryTitle = /* groq */ `"category": coalesce(category->title, string(category))`
const categoryFields = /* groq */ `${categoryTitle}, "categorySlug": coalesce(category->slug.current, string(category))`

/** A post's category, matched against a tab's `$category` slug, whichever form it has. */
const inCategory = /* groq */ `($category == null || category->slug.current == $category || category == $category)`

/**
 * The fields of a post card, with the slug flattened to a string (requirements §3); `_id` names
 * the post for preview mode's overlays (web/preview/useSanityNode.ts).
 */
const postCardFields = /* groq */ `{_id, title, "slug": slug.current, date, excerpt, ${categoryFields}, "words": ${bodyWords}, mainImage${imageFields}}`

/** The posts the site lists: a post needs a slug to have an address (requirements §7.1). */
export const listedPost = /* groq */ `_type == "post" && defined(slug.current)`

export const postOrder = /* groq */ `order(date desc, _id asc)`

/** The spec's list query: all posts by date descending (kept for the sitemap and feeds). */
export const postListQuery = defineQuery(`*[${listedPost}] | ${postOrder} ${postCardFields}`)

/** Page size of the blog list and the step of 'Load More' (requirements §9). */
export const blogPageSize = 6

/**
 * One page of a blog tab plus the tab's total. `$category` is null for Latest (every post) or a
 * category's slug to match exactly; `$start`/`$end` is a half-open slice, so the first response carries
 * six posts whatever the blog's size.
 */
export const postPageQuery = defineQuery(`{
  "posts": *[${listedPost} && ${inCategory}] | ${postOrder} [$start...$end] ${postCardFields},
  "total": count(*[${listedPost} && ${inCategory}])
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
  ${categoryFields},
  "words": ${bodyWords},
  mainImage${imageFields},
  body[]{..., _type == "image" => ${imageFields}},
  "federated": socialWeb != false,
  "excerpt": select(
    length(pt::text(body)) > 0 => array::join(string::split(pt::text(body), "")[0...${excerptLength}], ""),
    "${fallbackExcerpt}"
  )
}`)

/** How many posts of the same category a post page shows at its end. */
export const relatedPostCount = 3

/**
 * The conversation under a post from the social web: its approved comments (replies nested one
 * level) and its like and boost counts. `socialThread` is the public projection the server writes
 * from the private comment and reaction documents (server/social/threads.ts), so this read, like
 * every other of the site's, never sees a pending or hidden comment.
 */
const socialThreadFields = /* groq */ `{
  likes,
  boosts,
  comments[]{_key, authorName, authorHandle, authorProfile, content, summary, published, url, replies[]{_key, authorName, authorHandle, authorProfile, content, summary, published, url}}
}`

/**
 * What surrounds the post `$slug`: the previous (older) and next (newer) posts in the blog's
 * order, and up to `relatedPostCount` other posts of its category, newest first, and the
 * conversation under it from the social web (in the same query: one round trip fewer). Ties on the date
 * are broken by `_id` as in `postOrder`, so walking previous links visits every post once.
 */
export const postSurroundingsQuery = defineQuery(`*[_type == "post" && slug.current == $slug][0]{
  "previous": *[${listedPost} && (date < ^.date || (date == ^.date && _id > ^._id))] | ${postOrder} [0]{title, "slug": slug.current},
  "next": *[${listedPost} && (date > ^.date || (date == ^.date && _id < ^._id))] | order(date asc, _id desc) [0]{title, "slug": slug.current},
  "related": *[${listedPost} && coalesce(category._ref, category) == coalesce(^.category._ref, ^.category) && _id != ^._id] | ${postOrder} [0...${relatedPostCount}] ${postCardFields},
  "social": *[_type == "socialThread" && postId == ^._id][0]${socialThreadFields}
}`)

/** The social web's conversation under the post `$slug` alone (see `socialThreadFields`). */
export const postSocialQuery = defineQuery(
  `*[_type == "socialThread" && postId in *[_type == "post" && slug.current == $slug]._id][0]${socialThreadFields}`,
)

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
  _id, title, "slug": slug.current, date, excerpt, ${categoryTitle}, _updatedAt,
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
    {_id, title, "slug": slug.current, date, excerpt, ${categoryFields}, "words": ${bodyWords}, mainImage${imageFields}, "text": pt::text(body)},
  "total": count(*[${listedPost} && [title, excerpt, pt::text(body)] match text::query($q)])
}`)

/*
 * The site's copy, edited in the Studio (docs/site-editing.md). Each query pins `_type`, so its
 * answer's sync tag is that type's alone: a settings change drops every cached page (every page
 * reads the settings), a testimonial's only the pages that show testimonials. The site falls back
 * to today's copy (web/content/) for whatever is missing.
 */

/**
 * The settings' images, named by their asset's id without a join: every page reads the settings,
 * and a join would give every page the image assets' sync tag, so any image change would drop
 * every cached page (server/render/syncTags.test.ts).
 */
const settingsImageFields = /* groq */ `{
  crop, hotspot, alt, decorative, caption,
  "asset": select(defined(asset._ref) => {"_id": asset._ref, "metadata": null})
}`

/** The site settings singleton, read by every page (header, footer, meta). */
export const siteSettingsQuery =
  defineQuery(`*[_type == "siteSettings" && _id == "siteSettings"][0]{
  siteName, ownerName, ownerTitle, place, description,
  "portrait": portrait${settingsImageFields},
  "shareImage": shareImage${settingsImageFields},
  "footerModals": footerModals{
    "me": me{label, title, paragraphs},
    "privacy": privacy{label, title, paragraphs},
    "client": client{label, title, paragraphs}
  },
  "socialLinks": socialLinks[]{_key, label, url},
  editingSamplesUrl
}`)

/** The blog's categories, in tab order; a category needs a slug to have a tab. */
export const categoriesQuery = defineQuery(
  `*[_type == "category" && defined(slug.current)] | order(order asc, title asc, _id asc) {_id, title, "slug": slug.current, description}`,
)

/** The testimonials' fields as the pages show them. */
const testimonialFields = /* groq */ `{_id, quote, name, role, "photo": photo${imageFields}}`

/** How many testimonials Home's 'What clients say' shows. */
export const homeVoicesCount = 2

/** Home's words, the sections it shows, and its first testimonials. */
export const homePageQuery = defineQuery(`{
  "home": *[_type == "homePage" && _id == "homePage"][0]{
    intro, blogButton, latestHeading, showLatest, voicesHeading, showVoices, showSubscribe
  },
  "voices": *[_type == "testimonial" && defined(quote)] | order(order asc, _id asc) [0...${homeVoicesCount}] ${testimonialFields}
}`)

/** The Services page's lists, each in the order the owner dragged them into. */
export const servicesPageQuery =
  defineQuery(`*[_type == "servicesPage" && _id == "servicesPage"][0]{
  writingServices, editingServices, howIWork,
  "blogSamples": blogSamples[]{_key, label, "category": category->slug.current}
}`)

/** The Testimonials page: every testimonial in order, and the edited book titles. */
export const testimonialsPageQuery = defineQuery(`{
  "books": *[_type == "servicesPage" && _id == "servicesPage"][0].editedBooks,
  "testimonials": *[_type == "testimonial" && defined(quote)] | order(order asc, _id asc) ${testimonialFields}
}`)

/**
 * The redirect from `$path` (a path of the site, with its query string), if the owner made one
 * or the site did when a slug changed (docs/site-editing.md). The page checks the target again
 * before answering (web/routes/redirectFor.ts).
 */
export const redirectQuery = defineQuery(
  `*[_type == "redirect" && from == $path] | order(_updatedAt desc) [0]{to, permanent, external}`,
)
