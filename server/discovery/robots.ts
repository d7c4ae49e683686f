import {absoluteUrl} from '../../shared/siteUrls.ts'

/**
 * robots.txt (RFC 9309): the site is open to every crawler; the Studio and the API are not
 * pages; the sitemap line must be an absolute URL. The lake's `/v…` API is left to its own
 * access rules: it answers JSON, which crawlers do not index as pages.
 */
export function buildRobots(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /studio',
    'Disallow: /api',
    '',
    `Sitemap: ${absoluteUrl(siteUrl, '/sitemap.xml')}`,
    '',
  ].join('\n')
}
