/**
 * Who the site is by and what it is called, for every machine-readable description of it:
 * Open Graph, JSON-LD, the feeds. Plain data (no React) so the server's discovery routes can
 * import it too. The page copy itself lives with the pages.
 */
export const site = {
  name: 'Scriptorium',
  /** BCP 47, for <html lang>, feeds and JSON-LD. */
  language: 'en-GB',
  /** Open Graph's underscore form of the same locale. */
  ogLocale: 'en_GB',
  description:
    'A freelance writer and editor based in Kashmir: ghostwriting, creative pieces, guest posts and website content; developmental, line and copy editing and proofreading.',
  blogTitle: 'Scriptorium — Blog',
  blogDescription:
    'Essays and stories on fiction, mountaineering, motorcycles, Kashmir and the writing life.',
} as const

export const owner = {
  name: 'Scriptorium',
  jobTitle: 'Freelance Writer and Editor',
  /** Where the owner works from (the spec's fallback excerpt says Kashmir). */
  region: 'Kashmir',
} as const

/** The writing and editing services, as the Services page lists them. */
export const services = {
  writing: ['Ghostwriting', 'Creative pieces', 'Guest posts', 'Website content', 'Blog posts'],
  editing: ['Developmental editing', 'Line editing', 'Copy editing', 'Proofreading'],
} as const

/** The default share image: original art, 1200×630 (web/seo/share-image.svg, rendered by render-share-image.ts). */
export const shareImage = {
  path: '/share.png',
  width: 1200,
  height: 630,
  alt: 'Scriptorium, a writer and editor in Kashmir: a manuscript page, an ink pot and quill, and mountains in ink wash.',
} as const

/** Addresses of the feeds (server/discovery). */
export const feedPaths = {rss: '/rss.xml', atom: '/atom.xml'} as const
