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

/**
 * Closes a new connection at once when its peer already holds `max`. Behind a trusted proxy
 * (TRUST_PROXY=loopback) the proxy's loopback connections are everyone's and are not counted.
 */
export function limitConnectionsPerClient(
  server: Server | Http2SecureServer,
  trust: TrustProxy,
  max: number,
): void {
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? 'unknown'
    if (trust === 'loopback' && isLoopback(peer)) return
    const key = truncateAddress(peer)
    const count = open.get(key) ?? 0
    if (count >= max) {
      refusals.refuse(key, 'connections', `[http] connection from ${key} closed: over ${max} open`)
      socket.destroy()
      return
    }
    open.set(key, count + 1)
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1
      if (left > 0) open.set(key, left)
      else open.delete(key)
    })
  })
}
