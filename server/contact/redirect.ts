import {canonicalPaths} from '../../shared/canonicalPaths.ts'

/** Where a native post goes back to when `_next` is missing or not ours. */
export const contactPagePath = canonicalPaths.contact

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/**
 * The address to send a native post back to: `_next` only if it is on this site — the public
 * SITE_URL or the origin the request itself arrived on — and `/contact` otherwise, so the relay
 * can never be used as an open redirect (OWASP "Unvalidated Redirects and Forwards").
 * Relative `_next` values resolve against the request; `//evil.example` and `javascript:` do not
 * survive because their origin differs.
 */
export function safeNext(next: string | undefined, siteUrl: string, requestUrl: string): string {
  if (!next) return contactPagePath
  let target: URL
  try {
    target = new URL(next, requestUrl)
  } catch {
    return contactPagePath
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return contactPagePath
  const ours = new Set([originOf(siteUrl), originOf(requestUrl)].filter((o) => o !== undefined))
  return ours.has(target.origin) ? target.href : contactPagePath
}
