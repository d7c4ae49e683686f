import {STATUS_CODES} from 'node:http'
import type {Duplex} from 'node:stream'

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
