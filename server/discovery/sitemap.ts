import {canonicalPaths} from '../../shared/canonicalPaths.ts'
import {absoluteUrl, postPath} from '../../shared/siteUrls.ts'
import type {SitemapPost} from './content.ts'

/** The protocol's limit per file (https://www.sitemaps.org/protocol.html#index). */
export const maxSitemapUrls = 50_000

const xmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

/** Entity-escapes text for XML, as the protocol requires of every data value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => xmlEscapes[c] ?? c)
}

/** A W3C Datetime (the protocol's lastmod format), or undefined for an unparseable value. */
function w3cDatetime(value: string | undefined): string | undefined {
  const time = value ? Date.parse(value) : Number.NaN
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().replace('.000Z', 'Z')
}

interface UrlEntry {
  loc: string
  lastmod?: string
}

/**
 * The sitemap: the public pages at their canonical addresses, then every published post with
 * its last change as lastmod. The blog list changes whenever a post does, so it shares the
 * newest post's lastmod; the other pages are static copy and carry none rather than a guess.
 */
export function buildSitemap(posts: SitemapPost[], siteUrl: string): string {
  const newest = posts
    .map((post) => w3cDatetime(post._updatedAt))
    .filter((d) => d !== undefined)
    .sort()
    .at(-1)
  const entries: UrlEntry[] = Object.entries(canonicalPaths).map(([page, path]) => ({
    loc: absoluteUrl(siteUrl, path),
    lastmod: page === 'blog' ? newest : undefined,
  }))
  const seen = new Set<string>()
  for (const post of posts) {
    // The query keeps only posts with a slug; TypeGen cannot narrow defined(slug.current).
    if (!post.slug || seen.has(post.slug)) continue
    seen.add(post.slug)
    entries.push({
      loc: absoluteUrl(siteUrl, postPath(post.slug)),
      lastmod: w3cDatetime(post._updatedAt),
    })
  }
  if (entries.length > maxSitemapUrls) {
    console.warn(`[discovery] sitemap truncated to ${maxSitemapUrls} of ${entries.length} URLs`)
    entries.length = maxSitemapUrls
  }
  const urls = entries.map(
    ({loc, lastmod}) =>
      `  <url>\n    <loc>${escapeXml(loc)}</loc>\n${lastmod ? `    <lastmod>${lastmod}</lastmod>\n` : ''}  </url>`,
  )
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n')
}
