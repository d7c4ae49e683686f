import type {IncomingMessage, Server, ServerResponse} from 'node:http'
import type {Http2SecureServer, Http2ServerRequest, Http2ServerResponse} from 'node:http2'

/**
 * `X-Content-Type-Options: nosniff` on every answer of a listener, whichever route, middleware
 * or error handler makes it: set on the Node response before the app sees the request, so no
 * answer can lack it (API JSON and the contact error page did, security review 2). A browser
 * then never runs an answer as script or style unless its type says so. The raw answers of
 * server/http/edge.ts write it themselves.
 */
export function noSniff(server: Server | Http2SecureServer): void {
  server.prependListener(
    'request',
    (
      _request: IncomingMessage | Http2ServerRequest,
      response: ServerResponse | Http2ServerResponse,
    ) => response.setHeader('x-content-type-options', 'nosniff'),
  )
}
