import {IncomingMessage} from 'node:http'
import {Http2ServerRequest} from 'node:http2'
import {isIP} from 'node:net'
import type {Context} from 'hono'

/**
 * `TRUST_PROXY`: `none` (default) takes the socket's peer as the client; `loopback` trusts
 * `X-Forwarded-For` and `X-Forwarded-Proto` when, and only when, the peer is on loopback — a
 * reverse proxy on the same machine (docs/security.md).
 */
export type TrustProxy = 'none' | 'loopback'

/** Who sent a request, as every limit, throttle and log line of the process sees it. */
export interface Client {
  /** The address, truncated for privacy (IPv4 /24, IPv6 /48); loopback addresses stay whole. */
  key: string
  /** The request reached us over TLS, directly or through a trusted proxy. */
  secure: boolean
}

declare module 'hono' {
  interface ContextVariableMap {
    client: Client
  }
}

export function isLoopback(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'))
}

/**
 * The privacy-preserving form of an address (the spec promises no personal data is collected):
 * IPv4 keeps its /24, IPv6 its /48. Loopback stays whole: it is never a person, and the
 * benchmarks tell attackers apart by their 127.0.0.x address.
 */
export function truncateAddress(address: string): string {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address
  if (isLoopback(plain)) return plain
  const family = isIP(plain)
  if (family === 4) return plain.split('.').slice(0, 3).join('.') + '.0/24'
  if (family === 6) return expandIpv6(plain).slice(0, 3).join(':') + '::/48'
  return 'unknown'
}

function expandIpv6(address: string): string[] {
  const [head, tail] = address.split('%')[0].split('::')
  const left = head ? head.split(':') : []
  const right = tail === undefined ? [] : tail ? tail.split(':') : []
  const missing = 8 - left.length - right.length
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map(
    (group) => group.replace(/^0+(?=.)/, '') || '0',
  )
}

/**
 * The address a site process passes on as X-Forwarded-For for `client`: its network's own
 * address (`203.0.113.0` for the key `203.0.113.0/24`, `2001:db8:77::` for `2001:db8:77::/48`,
 * a loopback address whole). It is an IP, so the content process believes it, and it truncates
 * back to the same key, so both processes count the visitor alike without the site ever
 * holding its full address (security review 3, finding M1: the key itself is no IP, and every
 * visitor became the site process's 127.0.0.1). Undefined for a client of unknown address.
 */
export function forwardedAddress(client: Client): string | undefined {
  const address = client.key.replace(/\/(24|48)$/, '')
  return isIP(address) ? address : undefined
}

/** An X-Forwarded-For entry as an address: an IP, or a network in our key form (`…/24`, `…/48`). */
function forwardedIp(entry: string | undefined): string | undefined {
  const address = entry?.replace(/\/(24|48)$/, '')
  return address && isIP(address) ? address : undefined
}

export interface ClientSource {
  peer: string | undefined
  forwardedFor: string | undefined
  forwardedProto: string | undefined
  /** The listener is TLS itself. */
  encrypted: boolean
}

/** Resolves the client of a request (HTTP or WebSocket upgrade) under `trust`. */
export function resolveClient(source: ClientSource, trust: TrustProxy): Client {
  const peer = source.peer ?? 'unknown'
  if (trust === 'loopback' && isLoopback(peer)) {
    // The last entry is the one our own proxy appended; earlier ones are the visitor's words.
    // A site process of an older version forwards the key form; it names the same network.
    const forwarded = forwardedIp(source.forwardedFor?.split(',').at(-1)?.trim())
    const proto = source.forwardedProto?.split(',').at(-1)?.trim().toLowerCase()
    return {
      key: truncateAddress(forwarded ?? peer),
      secure: proto ? proto === 'https' : source.encrypted,
    }
  }
  return {key: truncateAddress(peer), secure: source.encrypted}
}

interface IncomingLike {
  socket?: {remoteAddress?: string; encrypted?: boolean}
  headers: Record<string, string | string[] | undefined>
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value
}

/** For raw node requests (upgrade handlers), where no Hono context exists. */
export function clientOfRequest(request: IncomingLike, trust: TrustProxy): Client {
  return resolveClient(
    {
      peer: request.socket?.remoteAddress,
      forwardedFor: header(request.headers['x-forwarded-for']),
      forwardedProto: header(request.headers['x-forwarded-proto']),
      encrypted: request.socket?.encrypted === true,
    },
    trust,
  )
}

function incomingOf(env: unknown): IncomingLike | undefined {
  // @hono/node-server passes {incoming, outgoing} as the env (its conninfo helper reads the same).
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined
  const incoming = env.incoming
  return incoming instanceof IncomingMessage || incoming instanceof Http2ServerRequest
    ? incoming
    : undefined
}

/**
 * The client of a Hono request: set once per request by the app's middleware (server/app.ts);
 * routes mounted without it (bare test apps) fall back to the socket peer, trusting nothing.
 */
export function clientOf(c: Context): Client {
  const known = c.get('client')
  if (known) return known
  const incoming = incomingOf(c.env)
  return incoming
    ? clientOfRequest(incoming, 'none')
    : {key: 'unknown', secure: new URL(c.req.url).protocol === 'https:'}
}

/** The app's middleware: resolves the client once, under the configured trust. */
export function clientMiddleware(trust: TrustProxy) {
  return async (c: Context, next: () => Promise<void>): Promise<void> => {
    const incoming = incomingOf(c.env)
    c.set(
      'client',
      incoming
        ? clientOfRequest(incoming, trust)
        : {key: 'unknown', secure: new URL(c.req.url).protocol === 'https:'},
    )
    await next()
  }
}
