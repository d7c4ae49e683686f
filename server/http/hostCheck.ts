import {isIP} from 'node:net'
import type {Context, MiddlewareHandler} from 'hono'
import type {ServerConfig} from '../env.ts'
import {clientOf, isLoopback} from './clientAddress.ts'
import {refusals, safe} from './log.ts'
import {requestHeader} from './requestHeader.ts'

/**
 * The Host check against DNS rebinding: a page on a hostile name that resolves to this machine
 * (or to a LAN address it listens on) must not reach the lake, the Studio or the login page with
 * the visitor's browser. A rebinding attack always carries the attacker's host name, so a request
 * is answered only when its Host is one we serve: SITE_URL's host, `localhost` and `*.localhost`
 * (the Studio's SDK calls `<projectId>.localhost`), a loopback address, the address the server
 * was bound to (HOST), or an entry of ALLOWED_HOSTS. Ports are ignored.
 */

/** Paths answered whatever the Host: health checks of load balancers and orchestrators. */
const exemptPaths = new Set(['/healthz', '/readyz'])

/** `Example.COM.:443` → `example.com`; `[::1]:3000` → `::1`. */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase()
  const name = lower.startsWith('[')
    ? lower.slice(1, lower.indexOf(']') === -1 ? undefined : lower.indexOf(']'))
    : lower.replace(/:\d*$/, '')
  return name.replace(/\.$/, '')
}

/** Hosts whose verdict is remembered; past it the memory starts over (Hosts are the client's). */
const maxRemembered = 1_000
/** Longer names are judged each time: no host we serve is that long, and they would weigh. */
const maxRememberedLength = 255

/**
 * Builds the predicate from the config; SITE_URL is read per call (known only after listen). A
 * verdict is remembered per Host while the config's names stay the same: nearly every request
 * carries one of a few hosts, and judging one (SITE_URL parsed, the name reduced twice, the
 * allowed list walked) cost a cached page a tenth of its time on the main thread.
 */
export function hostPolicy(config: ServerConfig): (host: string | undefined) => boolean {
  const verdicts = new Map<string, boolean>()
  let names: {siteUrl: string; host: string; allowedHosts: string[]} | undefined
  let siteName = ''
  return (host) => {
    if (!host) return false
    if (
      names?.siteUrl !== config.siteUrl ||
      names.host !== config.host ||
      names.allowedHosts !== config.allowedHosts
    ) {
      names = {siteUrl: config.siteUrl, host: config.host, allowedHosts: config.allowedHosts}
      siteName = hostName(new URL(config.siteUrl).host)
      verdicts.clear()
    }
    let verdict = verdicts.get(host)
    if (verdict === undefined) {
      verdict = judge(host, siteName, config)
      if (host.length > maxRememberedLength) return verdict
      if (verdicts.size >= maxRemembered) verdicts.clear()
      verdicts.set(host, verdict)
    }
    return verdict
  }
}

/** Whether `host` is one we serve; `siteName`: SITE_URL's host name. */
function judge(host: string, siteName: string, config: ServerConfig): boolean {
  const name = hostName(host)
  if (name === '') return false
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (isIP(name) !== 0 && isLoopback(name)) return true
  if (name === siteName) return true
  if (name === hostName(config.host) && config.host !== '0.0.0.0' && config.host !== '::')
    return true
  return config.allowedHosts.some((allowed) => hostName(allowed) === name)
}

/** URL hosts by the scheme and authority they were parsed from, remembered as verdicts are. */
const urlHosts = new Map<string, string>()

/**
 * `new URL(url).host`, parsed once per distinct scheme and authority (what the host depends on):
 * `url` is a request's absolute URL, whose path begins at the first `/` after `//`.
 */
export function urlHost(url: string): string {
  const end = url.indexOf('/', url.indexOf('//') + 2)
  if (end === -1) return new URL(url).host
  const origin = url.slice(0, end)
  let host = urlHosts.get(origin)
  if (host === undefined) {
    host = new URL(origin).host
    if (origin.length > maxRememberedLength) return host
    if (urlHosts.size >= maxRemembered) urlHosts.clear()
    urlHosts.set(origin, host)
  }
  return host
}

/** Lake API paths (`/v2023-07-29/...`, `/v1/...`, `/vX/...`) answer in Sanity's JSON shape. */
function isApiPath(path: string): boolean {
  return /^\/v[^/]*\//.test(path)
}

const message = (host: string) =>
  `Misdirected request: this server does not answer for the host "${host}". ` +
  'Its owner can add the name to ALLOWED_HOSTS.'

/** Refuses requests whose Host is not ours with 421 (Sanity-shaped JSON on the API). */
export function hostCheck(config: ServerConfig): MiddlewareHandler {
  const allowed = hostPolicy(config)
  return async (c: Context, next) => {
    if (exemptPaths.has(c.req.path)) return next()
    // Both: an absolute-form request target (`GET http://other/ HTTP/1.1`) makes the URL's host
    // differ from the Host header, and routes derive origins from the URL.
    const header = requestHeader(c, 'host')
    const host = header !== undefined && !allowed(header) ? header : urlHost(c.req.url)
    if (allowed(host)) return next()
    const client = clientOf(c).key
    refusals.refuse(
      client,
      '421',
      `[http] 421 ${c.req.method} ${c.req.path} from ${client}: Host ${safe(host)}`,
    )
    c.header('cache-control', 'no-store')
    if (isApiPath(c.req.path))
      return c.json(
        {error: {type: 'misdirectedRequest', description: message(safe(host, 100))}},
        421,
      )
    return c.text(message(safe(host, 100)), 421)
  }
}
