import type {IncomingMessage, Server, ServerResponse} from 'node:http'
import type {Http2SecureServer} from 'node:http2'
import type {Socket} from 'node:net'

/**
 * How long a graceful stop lets in-flight requests finish (server/start.ts). A write is answered
 * within milliseconds (one group-commit fsync), an owner query within its 10 s budget
 * (server/lake/queryPool/queryBudgets.ts); systemd's default TimeoutStopSec is 90 s, so 10 s is
 * well inside what the service manager waits (deploy/scriptorium.service).
 */
export const drainTimeoutMs = 10_000

/** How often idle keep-alive connections are closed while draining. */
const idleSweepMs = 50

export interface Drainable {
  /**
   * Stops accepting, lets in-flight requests finish, then closes what is left at `deadline`
   * (ms since epoch). Resolves once every connection of the listener is closed.
   */
  drain(deadline: number): Promise<void>
}

/**
 * Graceful close for one listener. Node's `server.close()` stops accepting and, for HTTP/2,
 * sends GOAWAY and waits for open streams; but an HTTP/1.1 keep-alive connection whose request
 * was in flight stays open after its response until the keep-alive timeout (seen: 7.8 s). So,
 * while draining, every response says `Connection: close`, idle connections are closed as soon
 * as they are idle, and whatever still holds on at the deadline is destroyed.
 */
export function drainable(server: Server | Http2SecureServer): Drainable {
  const sockets = new Set<Socket>()
  /** HTTP/1 responses not yet sent, which still can say `Connection: close`. */
  const unanswered = new Set<ServerResponse>()
  let draining = false
  const sayClose = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close')
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    // HTTP/2 streams cannot carry Connection; their session got GOAWAY from close().
    if (response.req.httpVersionMajor !== 1) return
    if (draining) return sayClose(response)
    unanswered.add(response)
    response.once('close', () => unanswered.delete(response))
  })
  return {
    drain(deadline) {
      draining = true
      for (const response of unanswered) sayClose(response)
      return new Promise<void>((resolve) => {
        const sweep = setInterval(() => {
          if ('closeIdleConnections' in server) server.closeIdleConnections()
        }, idleSweepMs)
        const hardStop = setTimeout(
          () => {
            for (const socket of sockets) socket.destroy()
          },
          Math.max(0, deadline - Date.now()),
        )
        server.close(() => {
          clearInterval(sweep)
          clearTimeout(hardStop)
          resolve()
        })
        if ('closeIdleConnections' in server) server.closeIdleConnections()
      })
    },
  }
}
