/**
 * The canonical path of every public page that is not a post. `/service` and `/testimonial`
 * are the spec's routes, but their canonical addresses are the plural ones (requirements §2).
 */
export const canonicalPaths = {
  home: '/',
  blog: '/blog',
  services: '/services',
  testimonials: '/testimonials',
  contact: '/contact',
} as const

/** The search page's canonical path: `noindex`, so not among the sitemap's pages above. */
export const searchPath = '/search'
