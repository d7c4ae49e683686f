import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import type {Feature} from '../feature.ts'
import {clientOfRequest, truncateAddress, type TrustProxy} from './clientAddress.ts'
import {refusals, safe} from './log.ts'

/**
 * The listeners' last line of defence: what Node itself rejects (a malformed request line or
 * header, a head over the size limit, a request that took too long) and what reaches a
 * WebSocket upgrade handler is answered with a 4xx and logged once per client per minute. No
 * input ends the process.
 */

function peerOf(socket: Duplex): string {
  const address = 'remoteAddress' in socket ? socket.remoteAddress : undefined
  return typeof address === 'string' ? truncateAddress(address) : 'unknown'
}

/** Sends `text` and closes: the socket is destroyed once the bytes are flushed. */
function endWith(socket: Duplex, text: string): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  socket.end(text, () => socket.destroy())
}

function statusLine(status: number, reason: string, body: string): string {
  return (
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  )
}

/** What Node's parser refused, as the status the client should see. */
function clientErrorStatus(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large']
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout']
  return [400, 'Bad Request']
}

/** The 'clientError' listener of both servers: a 4xx if the socket can still take one, then close. */
export function onClientError(error: Error & {code?: string}, socket: Duplex): void {
  const client = peerOf(socket)
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const [status, reason] = clientErrorStatus(error.code)
  refusals.refuse(
    client,
    `${status}-parse`,
    `[http] ${status} from ${client}: ${safe(error.message)}`,
  )
  endWith(socket, statusLine(status, reason, `${reason}\n`))
}

/** Answers an upgrade with a plain HTTP status and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string, body: string): void {
  endWith(socket, statusLine(status, reason, body))
}

export interface UpgradeGuardOptions {
  features: Feature[]
  trust: TrustProxy
  /** The Host check (server/http/hostCheck.ts). */
  hostAllowed(host: string | undefined): boolean
}

/**
 * The 'upgrade' listener of both servers: checks the Host, hands the request to the feature that
 * owns its path, and turns a handler's exception into a 400 instead of an uncaught error.
 */
export function upgradeGuard(
  options: UpgradeGuardOptions,
): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (request, socket, head) => {
    // Node removes its own error listener from an upgraded socket: without one, a reset
    // before the WebSocket library attaches would be an uncaught 'error' event.
    socket.on('error', () => socket.destroy())
    const client = clientOfRequest(request, options.trust).key
    const what = `${safe(request.url ?? '')} from ${client}`
    try {
      if (!options.hostAllowed(request.headers.host)) {
        refusals.refuse(
          client,
          '421',
          `[http] 421 upgrade ${what}: Host ${safe(request.headers.host)}`,
        )
        refuseUpgrade(socket, 421, 'Misdirected Request', 'Misdirected request\n')
        return
      }
      if (options.features.some((feature) => feature.upgrade?.(request, socket, head))) return
      refusals.refuse(client, '404-upgrade', `[http] 404 upgrade ${what}`)
      refuseUpgrade(socket, 404, 'Not Found', 'No WebSocket at this address\n')
    } catch (error) {
      refusals.refuse(client, '400-upgrade', `[http] 400 upgrade ${what}: ${safe(error)}`)
      refuseUpgrade(socket, 400, 'Bad Request', 'Bad request\n')
    }
  }
}

/**
 * @hono/node-server's error handler: a request it cannot turn into a URL (no or a malformed
 * Host, a backslash in the path, a bad absolute target) is a 400. The client is unknown here:
 * such requests share one summarised log line per minute.
 */
export function unreadableRequest(error: unknown): Response {
  refusals.refuse('unknown', '400-request', `[http] 400 unreadable request: ${safe(error)}`)
  return new Response('Bad request\n', {
    status: 400,
    headers: {'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff'},
  })
}
