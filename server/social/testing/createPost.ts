/**
 * A `create` of a published post at `/blog/<slug>` for the federation tests: what the social web
 * sends its followers on a first publish. `fields` add to it or override the defaults (the
 * title, the date) where a test looks at what is sent.
 */
export function createPost(id: string, slug: string, fields: Record<string, unknown> = {}) {
  return {
    create: {
      _id: id,
      _type: 'post',
      title: `Post ${slug}`,
      slug: {_type: 'slug', current: slug},
      date: '2026-11-28',
      ...fields,
    },
  }
}
