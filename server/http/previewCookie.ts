import type {Context} from 'hono'
import {getCookie} from 'hono/cookie'
import {clientOf} from './clientAddress.ts'

/**
 * The preview cookie. `__Host-`: the browser keeps it only if it is Secure, for this host alone and
 * the whole path, so no sibling subdomain can plant one. HttpOnly: no script reads it. Lax: sent
 * on the Studio's same-site frame and on top-level visits, never on another site's subrequests.
 * A session cookie: the preview session behind it has its own lifetime (server/lake/sessions/previewSessions.ts).
 */
export const previewCookieName = '__Host-scriptorium-preview'

const attributes = 'Path=/; HttpOnly; Secure; SameSite=Lax'

export const previewCookie = (token: string) => `${previewCookieName}=${token}; ${attributes}`
export const clearedPreviewCookie = `${previewCookieName}=; ${attributes}; Max-Age=0`

/** Preview tokens are `prv` and 43 base64url characters; anything else is not looked at. */
const tokenPattern = /^prv[\w-]{43}$/

/**
 * The preview token a request presents, honoured only over HTTPS: on the TLS listener, or behind
 * a TLS proxy where TRUST_PROXY lets X-Forwarded-Proto count (server/http/clientAddress.ts).
 */
export function presentedPreviewToken(c: Context): string | undefined {
  if (!clientOf(c).secure) return undefined
  const token = getCookie(c, previewCookieName)
  return token !== undefined && tokenPattern.test(token) ? token : undefined
}

/**
 * A path on this site to send the browser to, or undefined: one leading slash (`//host` and
 * `/\host` are other hosts to a browser), no control characters.
 */
export function sameSitePath(value: string | null | undefined): string | undefined {
  if (!value || value.length > 2048) return undefined
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined
  return value
}
