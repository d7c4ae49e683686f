import {IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {Http2SecureServer, Http2ServerRequest} from 'node:http2'
import {truncateAddress} from './clientAddress.ts'
import {refusals} from './log.ts'

export interface BodyPace {
  /** A body may take this long before its pace is checked (a slow start, a phone waking up). */
  graceMs: number
  /** ... then it must have kept up this average rate since the grace ended. */
  minBytesPerSecond: number
  /** How often bodies in flight are checked. */
  checkIntervalMs: number
}

interface Arriving {
  request: IncomingMessage
  response: ServerResponse
  startedAt: number
  bytesAtStart: number
}

/**
 * Ends HTTP/1.1 requests whose body trickles: past the grace, a body that has not kept up the
 * minimum rate gets 408 and its connection is closed. Node's own `requestTimeout` bounds only the
 * total time (120 s, for the largest upload on a poor link), so without this one byte every 5 s
 * held a connection for two minutes (security review 2, finding 2). A body the server itself is
 * not reading (data waiting in the request's buffer) is never the client's fault and is left
 * alone. HTTP/2 streams are bounded per session instead (server/http/http2Abuse.ts).
 */
export function limitBodyPace(server: Server | Http2SecureServer, pace: BodyPace): void {
  const arriving = new Set<Arriving>()
  let sweep: NodeJS.Timeout | undefined
  const check = () => {
    const now = Date.now()
    for (const entry of arriving) {
      const {request, response} = entry
      // Complete as soon as the parser has seen its end, read by the handler or not.
      if (request.complete) {
        arriving.delete(entry)
        continue
      }
      const late = now - entry.startedAt - pace.graceMs
      if (late <= 0 || request.readableLength > 0) continue
      const received = request.socket.bytesRead - entry.bytesAtStart
      if (received >= (late / 1000) * pace.minBytesPerSecond) continue
      arriving.delete(entry)
      const client = truncateAddress(request.socket.remoteAddress ?? 'unknown')
      refusals.refuse(
        client,
        'slow-body',
        `[http] 408 from ${client}: body under ${pace.minBytesPerSecond} bytes/s`,
      )
      if (!response.headersSent) {
        response.writeHead(408, {
          'content-type': 'text/plain; charset=utf-8',
          'x-content-type-options': 'nosniff',
          connection: 'close',
        })
        response.end('Request body arrived too slowly\n', () => request.socket.destroy())
      } else request.socket.destroy()
    }
    if (arriving.size === 0) {
      clearInterval(sweep)
      sweep = undefined
    }
  }
  server.on(
    'request',
    (request: IncomingMessage | Http2ServerRequest, response: ServerResponse) => {
      // HTTP/1.1 only, on either listener (the HTTPS one allows it beside HTTP/2).
      if (!(request instanceof IncomingMessage)) return
      // No Content-Length and no Transfer-Encoding: a request without a body (RFC 9112 §6.3),
      // nothing to trickle. Most requests (every page) are such, and watching each cost three
      // listeners and a set entry.
      const {headers} = request
      if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
        return
      const entry = {
        request,
        response,
        startedAt: Date.now(),
        bytesAtStart: request.socket.bytesRead,
      }
      arriving.add(entry)
      const done = () => arriving.delete(entry)
      request.once('end', done)
      request.once('close', done)
      response.once('close', done)
      sweep ??= setInterval(check, pace.checkIntervalMs)
      sweep.unref()
    },
  )
}
