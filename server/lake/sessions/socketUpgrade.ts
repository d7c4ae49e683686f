import {STATUS_CODES, type IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import {safe} from '../../http/log.ts'

/**
 * Answers a WebSocket upgrade we refuse with a plain HTTP/1.1 response, then closes the socket
 * once it is written (the pattern `ws` uses for its own handshake errors). Node removes its
 * own error listener from an upgraded socket, so one is added here: a peer resetting the
 * connection mid-refusal must not become an uncaught exception.
 */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  headers: Record<string, string> = {},
): void {
  socket.on('error', () => socket.destroy())
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const reason = STATUS_CODES[status] ?? 'Refused'
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Connection: close',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(reason)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ]
  socket.once('finish', () => socket.destroy())
  socket.end(`${lines.join('\r\n')}\r\n\r\n${reason}`)
}

/** `decodeURIComponent` that answers undefined for a malformed escape instead of throwing. */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/**
 * Retry-After for a client over its socket cap: a slot frees when one of its sockets closes,
 * which we cannot predict; the Studio's own reconnect backoff is of this order.
 */
export const socketRetryAfterSeconds = 10

export interface UpgradeRefusal {
  status: number
  /** For the log line; attacker-controlled parts already escaped. */
  why: string
  headers?: Record<string, string>
}

/** Why an upgrade to the socket path is refused, or undefined to accept it. */
export function upgradeRefusal(
  request: IncomingMessage,
  rawDataset: string,
  checks: {
    allowOrigin: (origin: string | undefined) => boolean
    dataset: string
    /** The client is under its socket cap. */
    admits: () => boolean
  },
): UpgradeRefusal | undefined {
  const dataset = decodeSegment(rawDataset)
  if (dataset === undefined) return {status: 400, why: 'malformed escape in the path'}
  const origin = request.headers.origin
  if (origin !== undefined && !checks.allowOrigin(origin))
    return {status: 403, why: `foreign origin ${safe(origin)}`}
  if (dataset !== checks.dataset) return {status: 404, why: 'no such dataset'}
  if (!checks.admits()) {
    const headers = {'Retry-After': String(socketRetryAfterSeconds)}
    return {status: 429, why: 'too many open sockets', headers}
  }
  return undefined
}
