/**
 * Who the site is by and what it is called, for every machine-readable description of it:
 * Open Graph, JSON-LD, the feeds. Plain data (no React) in shared/ so the server's discovery
 * routes import it as the site does. The pages' copy (web/content/site.ts) takes the owner and
 * the site's name from here.
 */

/** The owner as the pages' copy names her (requirements §1). */
export const siteOwner = {
  name: 'Zoya Mir',
  title: 'Writer & Editor',
  place: 'Kashmir',
}

export const siteName = `${siteOwner.name} — ${siteOwner.title}`

export const owner = {
  name: siteOwner.name,
  jobTitle: siteOwner.title,
  /** Where the owner works from. */
  region: siteOwner.place,
} as const

export const site = {
  name: siteName,
  /** BCP 47, for feeds and JSON-LD. */
  language: 'en-GB',
  /** Open Graph's underscore form of the same locale. */
  ogLocale: 'en_GB',
  description: `${owner.name} is a freelance writer and editor based in ${owner.region}: ghostwriting, creative pieces, guest posts and website content; developmental, line and copy editing and proofreading.`,
  blogTitle: `${owner.name} — Blog`,
  blogDescription: `Essays and stories by ${owner.name} on fiction, mountaineering, motorcycles, Kashmir and the writing life.`,
} as const

/** The writing and editing services, as the spec lists them (§1). */
export const services = {
  writing: ['Ghostwriting', 'Creative pieces', 'Guest posts', 'Website content', 'Blog posts'],
  editing: ['Developmental editing', 'Line editing', 'Copy editing', 'Proofreading'],
} as const

/** The default share image: original art, 1200×630 (share-image.svg, rendered by renderShareImage.ts). */
export const shareImage = {
  path: '/share.png',
  width: 1200,
  height: 630,
  alt: `${owner.name}, writer and editor in Kashmir: a manuscript page, an ink pot and quill, and mountains in ink wash.`,
} as const

/** Addresses of the feeds (server/discovery). */
export const feedPaths = {rss: '/rss.xml', atom: '/atom.xml'} as const

/**
 * The site's fediverse account (server/social/, docs/social-web.md): its actor's address. Local
 * lake only; a hosted project has no social web.
 */
export const socialActorPath = '/social/site'
