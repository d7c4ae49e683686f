import {isIP} from 'node:net'
import type {Context, MiddlewareHandler} from 'hono'
import type {ServerConfig} from '../env.ts'
import {clientOf, isLoopback} from './clientAddress.ts'
import {refusals, safe} from './log.ts'

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

/** Builds the predicate from the config; SITE_URL is read per call (known only after listen). */
export function hostPolicy(config: ServerConfig): (host: string | undefined) => boolean {
  return (host) => {
    if (!host) return false
    const name = hostName(host)
    if (name === '') return false
    if (name === 'localhost' || name.endsWith('.localhost')) return true
    if (isIP(name) !== 0 && isLoopback(name)) return true
    if (name === hostName(new URL(config.siteUrl).host)) return true
    if (name === hostName(config.host) && config.host !== '0.0.0.0' && config.host !== '::')
      return true
    return config.allowedHosts.some((allowed) => hostName(allowed) === name)
  }
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
    const urlHost = new URL(c.req.url).host
    const header = c.req.header('host')
    const host = header !== undefined && !allowed(header) ? header : urlHost
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
