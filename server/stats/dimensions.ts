/**
 * The page view's dimensions, made from what a client sent: clipped, stripped of control
 * characters, and reduced to the few values a chart can show, so a forged header never breaks
 * one (docs/reader-statistics.md, "Bad input").
 */

/** Headers and values longer than this are cut: no real user agent, host or campaign needs more. */
export const maxValueLength = 256

/** The value a visit without a referrer from another site is counted under. */
export const direct = 'direct'

/** Printable text only, at most `maxValueLength` characters. */
export function clip(value: string | null | undefined): string {
  if (!value) return ''
  // Control characters are what is removed (a header cannot carry most, a beacon could).
  // eslint-disable-next-line no-control-regex
  const unprintable = /[\u0000-\u001f\u007f-\u009f\ufffd]/g
  return value
    .slice(0, maxValueLength * 4)
    .replace(unprintable, '')
    .slice(0, maxValueLength)
}

/** Route paths whose canonical form is another path (requirements §2, shared/canonicalPaths.ts). */
const aliases: Record<string, string> = {'/service': '/services', '/testimonial': '/testimonials'}

/**
 * The route's canonical path: no query, no trailing or doubled slashes, the site's own routes in
 * lower case (the router matches them so), `/service` → `/services`. A post's slug is kept as
 * asked, since the post page answered 200 for it.
 */
export function canonicalPath(pathname: string): string {
  const path =
    clip(pathname)
      .replace(/\/{2,}/g, '/')
      .replace(/\/+$/, '') || '/'
  const [, first = '', ...rest] = path.split('/')
  const head = `/${first.toLowerCase()}`
  const page = rest.length > 0 ? `${head}/${rest.join('/')}` : head
  return aliases[page] ?? page
}

/**
 * The referrer's host name, lower case; the site's own host (`ownHosts`) and none are "direct".
 * Anything that is not an http(s) URL is "direct" too: it names no site a reader came from.
 */
export function referrerHost(referer: string | null | undefined, ownHosts: Set<string>): string {
  const value = clip(referer)
  if (!value) return direct
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return direct
    const host = url.hostname.toLowerCase()
    return host && !ownHosts.has(host) ? host.replace(/^www\./, '') : direct
  } catch {
    return direct
  }
}

const campaignParams = ['utm_source', 'utm_medium', 'utm_campaign'] as const

/**
 * The page's campaign: its `utm_source`, `utm_medium` and `utm_campaign`, each clipped, joined as
 * `source / medium / campaign` (empty parts left out), or undefined without any.
 */
export function campaign(search: URLSearchParams): string | undefined {
  const parts = campaignParams.map((name) => clip(search.get(name)).trim()).filter(Boolean)
  return parts.length > 0 ? clip(parts.join(' / ')) : undefined
}
