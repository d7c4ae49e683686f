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
  /** Each client's open sockets, oldest first (a Set keeps insertion order). */
  const open = new Map<string, Set<Socket>>()
  let total = 0
  const forget = (key: string, socket: Socket) => {
    const own = open.get(key)
    if (!own?.delete(socket)) return
    total--
    if (own.size === 0) open.delete(key)
  }
  const heaviest = (): [string, Set<Socket>] | undefined => {
    let found: [string, Set<Socket>] | undefined
    for (const entry of open) if (!found || entry[1].size > found[1].size) found = entry
    return found
  }
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? 'unknown'
    if (trust === 'loopback' && isLoopback(peer)) return
    const key = truncateAddress(peer)
    const count = open.get(key)?.size ?? 0
    if (count >= caps.perClient) {
      refusals.refuse(
        key,
        'connections',
        `[http] connection from ${key} closed: over ${caps.perClient} open`,
      )
      socket.destroy()
      return
    }
    if (total >= caps.max) {
      const [victimKey, victims] = heaviest() ?? ['', new Set<Socket>()]
      // Evicting from an address no larger than the newcomer would only trade places.
      if (victims.size <= count + 1) {
        refusals.refuse(key, 'listener-full', `[http] connection from ${key} closed: listener full`)
        socket.destroy()
        return
      }
      const [oldest] = victims
      forget(victimKey, oldest)
      refusals.refuse(
        victimKey,
        'connections-evicted',
        `[http] oldest connection of ${victimKey} closed: the listener is full and ${key} holds fewer`,
      )
      oldest.destroy()
    }
    const own = open.get(key) ?? new Set<Socket>()
    own.add(socket)
    open.set(key, own)
    total++
    socket.once('close', () => forget(key, socket))
  })
}
