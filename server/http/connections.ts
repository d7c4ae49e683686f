import type {Server} from 'node:http'
import type {Http2SecureServer} from 'node:http2'
import type {Socket} from 'node:net'
import {isLoopback, truncateAddress, type TrustProxy} from './clientAddress.ts'
import {refusals} from './log.ts'

/**
 * Open connections one client address may hold on a listener. `maxConnections` alone would let
 * one slowloris client fill the whole listener; with this, it fills only its own share. A
 * browser opens at most 6 connections per origin, so 256 leaves room for a household or office
 * behind one address (IPv4 /24, IPv6 /48 — the privacy truncation is the key).
 */
export const maxConnectionsPerClient = 256

export interface ConnectionCaps {
  /** Connections the listener holds in all (not counting a trusted proxy's). */
  max: number
  /** ... and per client address. */
  perClient: number
}

/**
 * Shares a listener's connections fairly among client addresses. A client over its own cap is
 * closed at once. When the listener is full, a newcomer is not turned away while another address
 * holds more than it: that address's oldest connection is closed to make room. So a few
 * addresses holding slow uploads can fill the listener only until someone new arrives (security
 * review 2, finding 2: 4 addresses × 256 held all 1,024 and a fifth got no answer for a minute).
 * Behind a trusted proxy (TRUST_PROXY=loopback) the proxy's loopback connections are everyone's
 * and are not counted; Node's own `maxConnections` (server/http/limits.ts) bounds them.
 */
export function shareConnections(
  server: Server | Http2SecureServer,
  trust: TrustProxy,
  caps: ConnectionCaps,
): void {
  const shares = new ConnectionShares(caps)
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? 'unknown'
    if (trust === 'loopback' && isLoopback(peer)) return
    const key = truncateAddress(peer)
    if (!shares.admit(key, socket)) {
      socket.destroy()
      return
    }
    socket.once('close', () => shares.forget(key, socket))
  })
}

/** Each client's open sockets, oldest first (a Set keeps insertion order), and their total. */
class ConnectionShares {
  private readonly open = new Map<string, Set<Socket>>()
  private readonly caps: ConnectionCaps
  private total = 0

  constructor(caps: ConnectionCaps) {
    this.caps = caps
  }

  /** Counts `socket` as `key`'s, making room if the listener is full; false: refuse it. */
  admit(key: string, socket: Socket): boolean {
    const {caps} = this
    const count = this.open.get(key)?.size ?? 0
    if (count >= caps.perClient) {
      refusals.refuse(
        key,
        'connections',
        `[http] connection from ${key} closed: over ${caps.perClient} open`,
      )
      return false
    }
    if (this.total >= caps.max && !this.evictForNewcomer(key, count)) return false
    const own = this.open.get(key) ?? new Set<Socket>()
    own.add(socket)
    this.open.set(key, own)
    this.total++
    return true
  }

  forget(key: string, socket: Socket): void {
    const own = this.open.get(key)
    if (!own?.delete(socket)) return
    this.total--
    if (own.size === 0) this.open.delete(key)
  }

  /** Closes the oldest connection of the address holding most, if it holds more than `key`. */
  private evictForNewcomer(key: string, count: number): boolean {
    const [victimKey, victims] = this.heaviest() ?? ['', new Set<Socket>()]
    // Evicting from an address no larger than the newcomer would only trade places.
    if (victims.size <= count + 1) {
      refusals.refuse(key, 'listener-full', `[http] connection from ${key} closed: listener full`)
      return false
    }
    const [oldest] = victims
    this.forget(victimKey, oldest)
    refusals.refuse(
      victimKey,
      'connections-evicted',
      `[http] oldest connection of ${victimKey} closed: the listener is full and ${key} holds fewer`,
    )
    oldest.destroy()
    return true
  }

  private heaviest(): [string, Set<Socket>] | undefined {
    let found: [string, Set<Socket>] | undefined
    for (const entry of this.open) if (!found || entry[1].size > found[1].size) found = entry
    return found
  }
}
