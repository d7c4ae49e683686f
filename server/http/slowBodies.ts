import {IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {Http2SecureServer, Http2ServerRequest} from 'node:http2'
import {truncateAddress} from './clientAddress.ts'
import {refusals} from './log.ts'
import {PacedBody, PaceSweep, type Pace} from './paceSweep.ts'

export type BodyPace = Pace

/**
 * Ends HTTP/1.1 requests whose body trickles: past the grace, a body that has not kept up the
 * minimum rate gets 408 and its connection is closed. Node's own `requestTimeout` bounds only the
 * total time (120 s, for the largest upload on a poor link), so without this one byte every 5 s
 * held a connection for two minutes (security review 2, finding 2). A body the server itself is
 * not reading (data waiting in the request's buffer) is never the client's fault and is left
 * alone. HTTP/2 streams are bounded per session instead (server/http/http2Abuse.ts).
 */
export function limitBodyPace(server: Server | Http2SecureServer, pace: BodyPace): void {
  const sweep = new PaceSweep(pace)
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
      const body = new Http1Body(request, response)
      sweep.add(body)
      const done = () => sweep.delete(body)
      request.once('end', done)
      request.once('close', done)
      response.once('close', done)
    },
  )
}

class Http1Body extends PacedBody {
  private readonly request: IncomingMessage
  private readonly response: ServerResponse

  constructor(request: IncomingMessage, response: ServerResponse) {
    super(request.socket.bytesRead)
    this.request = request
    this.response = response
  }

  bytesRead(): number {
    return this.request.socket.bytesRead
  }

  /** Complete as soon as the parser has seen its end, read by the handler or not. */
  finished(): boolean {
    return this.request.complete
  }

  waiting(): boolean {
    return this.request.readableLength > 0
  }

  refuse(minBytesPerSecond: number): void {
    const {request, response} = this
    const client = truncateAddress(request.socket.remoteAddress ?? 'unknown')
    refusals.refuse(
      client,
      'slow-body',
      `[http] 408 from ${client}: body under ${minBytesPerSecond} bytes/s`,
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
}
