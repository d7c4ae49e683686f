// Until web/queries.ts exists (issue #3), the discovery queries live here; they move there after.
// Only published posts with a slug: the client asks for the `published` perspective as well.

/** Every post's address and last change, for the sitemap: newest first. */
export const sitemapQuery = `*[_type == "post" && defined(slug.current)] | order(date desc, _updatedAt desc) {
  "slug": slug.current,
  _updatedAt
}`

/** The newest posts in full, for the RSS and Atom feeds. */
export const feedPostsQuery = `*[_type == "post" && defined(slug.current)] | order(date desc, _updatedAt desc) [0...$limit] {
  _id,
  title,
  "slug": slug.current,
  date,
  excerpt,
  category,
  body,
  _updatedAt
}`
