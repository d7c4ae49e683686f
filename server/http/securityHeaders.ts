import {createHash} from 'node:crypto'
import type {Context, MiddlewareHandler} from 'hono'
import type {ServerConfig} from '../env.ts'
import {clientOf} from './clientAddress.ts'

/**
 * The browser defences of the public pages and of every HTTPS answer (docs/security.md).
 *
 * The pages' Content-Security-Policy allows scripts by hash, not by nonce: a page is rendered
 * once and served byte-identical from the render cache to every visitor, so it cannot carry a
 * per-response nonce. The only inline script that runs is the boot script
 * (web/boot/bootScript.ts); the payload and JSON-LD scripts are data (`type="application/json"`,
 * `application/ld+json`), which browsers never execute, so they need no hash. The app itself is a
 * same-origin module (`'self'`).
 */

/** `'sha256-…'` of an inline script's exact text, as CSP Level 2 hashes it (UTF-8 bytes). */
export function scriptHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`
}

/** What the pages' policy depends on: the site's deployment (shared/siteConfig.ts SiteConfig). */
export interface PagePolicySite {
  mode: 'local' | 'hosted'
  projectId: string
  siteUrl: string
  contactAction: string
}

function originOf(url: string, base: string): string | undefined {
  try {
    return new URL(url, base).origin
  } catch {
    return undefined
  }
}

/**
 * The pages' CSP. SITE_URL's origin is listed beside 'self' because stored image URLs are
 * absolute under it (a page opened through another allowed host still shows them); hosted mode
 * adds the sanity.io API and image CDN; CONTACT_ACTION's origin may receive the form.
 */
export function pageContentSecurityPolicy(site: PagePolicySite, scriptHashes: string[]): string {
  const self = ["'self'"]
  const siteOrigin = originOf(site.siteUrl, 'http://localhost')
  if (siteOrigin) self.push(siteOrigin)
  const contact = originOf(site.contactAction, site.siteUrl)
  const withContact = contact && !self.includes(contact) ? [...self, contact] : self
  const hosted = site.mode === 'hosted'
  const img = [...self, 'data:', ...(hosted ? ['https://cdn.sanity.io'] : [])]
  const connect = [
    ...withContact,
    ...(hosted
      ? [`https://${site.projectId}.apicdn.sanity.io`, `https://${site.projectId}.api.sanity.io`]
      : []),
  ]
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    // styled-components writes <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img.join(' ')}`,
    `connect-src ${connect.join(' ')}`,
    `form-action ${withContact.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    // The Studio frames the site for preview; nobody else may.
    "frame-ancestors 'self'",
  ].join('; ')
}

/**
 * Powerful features the site never uses, switched off for it and anything it might embed. Only
 * names Chrome recognises: an unknown one is logged as a console error, which Lighthouse counts.
 */
export const permissionsPolicy = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'serial',
  'usb',
]
  .map((feature) => `${feature}=()`)
  .join(', ')

/** One year, the value HSTS preload lists ask for. */
export const hstsMaxAgeSeconds = 31_536_000

/**
 * HSTS on HTTPS answers, only when the certificate is one browsers trust: TLS_CERT is set, or a
 * trusted proxy (TRUST_PROXY=loopback) terminated TLS. Never for the self-signed localhost
 * default: pinning a browser to HTTPS for `localhost` would break every other local project.
 */
export function hsts(config: ServerConfig): MiddlewareHandler {
  return async (c: Context, next) => {
    await next()
    // c.req.url is already an absolute URL normalised by @hono/node-server (a lower-case scheme):
    // reading its scheme needs no second parse, which every answer paid for.
    const directTls = c.req.url.startsWith('https:')
    const secure = clientOf(c).secure
    const trusted = directTls ? config.tlsCert !== undefined : secure
    if (!secure || !trusted) return
    setHeader(c, 'strict-transport-security', `max-age=${hstsMaxAgeSeconds}`)
  }
}

/** Sets a header on the answer, copying it first if its headers are immutable (a redirect). */
export function setHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value)
  } catch {
    c.res = new Response(c.res.body, c.res)
    c.res.headers.set(name, value)
  }
}
