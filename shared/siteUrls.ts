/** The path of a post's page; the slug is encoded so any slug stays one path segment. */
export function postPath(slug: string): string {
  return `/blog/${encodeURIComponent(slug)}`
}

/**
 * An absolute URL for `path` on the site at `siteUrl` (SITE_URL: origin, maybe a base path,
 * no trailing slash). Every canonical link, feed and sitemap address is made here.
 */
export function absoluteUrl(siteUrl: string, path: string): string {
  const base = siteUrl.replace(/\/+$/, '')
  return path === '/' ? `${base}/` : `${base}${path.startsWith('/') ? path : `/${path}`}`
}
