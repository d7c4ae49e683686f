import type {Context} from 'hono'

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/**
 * Whether a form post came from another site's page (security review 3, L2): a page elsewhere
 * could otherwise make its visitors' browsers post to us. Browsers say so in `Sec-Fetch-Site`
 * (Fetch Metadata); every browser also sends `Origin` on a POST, which must then be the site:
 * SITE_URL's origin or the origin the request itself arrived on (a site process forwards the
 * visitor's `Origin` but not `Sec-Fetch-Site`). `Origin: null` (a sandboxed frame, a
 * `data:` page) is not the site. A request with neither header is no browser's cross-site post
 * (curl, a mail client's one-click unsubscribe), and is let through.
 */
export function isCrossSitePost(c: Context, siteUrl: string): boolean {
  if (c.req.header('sec-fetch-site') === 'cross-site') return true
  const origin = c.req.header('origin')
  if (origin === undefined) return false
  const ours = [originOf(siteUrl), originOf(c.req.url)]
  return !ours.includes(origin)
}
