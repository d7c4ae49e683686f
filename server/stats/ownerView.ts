import type {Context} from 'hono'
import {getCookie} from 'hono/cookie'
import type {ServerConfig} from '../env.ts'
import {previewCookieName} from '../http/previewCookie.ts'
import {requestHeader} from '../http/requestHeader.ts'
import {studioOrigins} from '../http/studioOrigins.ts'

/**
 * Whether a page view is the owner's own: her browser presents a preview cookie (set only after
 * the Studio's Presentation tool enabled preview, whether or not its session is still live), or
 * she followed a link out of the Studio (its origin, or a `/studio` page on the site's own).
 * A Studio session is a bearer token the Studio sends itself, never on a page's navigation, so
 * the referrer is what shows it.
 */
export function isOwnerView(c: Context, config: ServerConfig): boolean {
  // The cookies are parsed only when there are some.
  const cookies = requestHeader(c, 'cookie')
  if (cookies !== undefined && getCookie(c, previewCookieName) !== undefined) return true
  if (requestHeader(c, 'authorization') !== undefined) return true
  const referer = requestHeader(c, 'referer')
  if (!referer) return false
  let url: URL
  try {
    url = new URL(referer)
  } catch {
    return false
  }
  const site = new URL(config.siteUrl).origin
  if (url.origin !== site && studioOrigins(config).includes(url.origin)) return true
  return (
    (url.host === requestHeader(c, 'host') || url.origin === site) &&
    /^\/studio(\/|$)/.test(url.pathname)
  )
}
