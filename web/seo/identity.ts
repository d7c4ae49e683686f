/**
 * Who the site is by and what it is called, for every machine-readable description of it:
 * Open Graph, JSON-LD, the feeds. Plain data (no React) so the server's discovery routes can
 * import it too. The owner and the site's name come from the pages' own copy.
 */
import {owner as siteOwner, siteName} from '../content/site.ts'

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
