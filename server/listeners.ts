import {createServer, type Server} from 'node:http'
import {createSecureServer, type Http2SecureServer} from 'node:http2'
import {getRequestListener} from '@hono/node-server'
import type {Hono} from 'hono'
import type {ServerConfig} from './env.ts'
import type {Feature} from './feature.ts'
import {isLoopback} from './http/clientAddress.ts'
import {shareConnections} from './http/connections.ts'
import {drainable} from './http/drain.ts'
import {onClientError, unreadableRequest, upgradeGuard} from './http/edge.ts'
import {hostPolicy} from './http/hostCheck.ts'
import {
  applyLimits,
  applySessionLimits,
  http1Options,
  http2Options,
  type EdgeLimits,
} from './http/limits.ts'
import {noSniff} from './http/noSniff.ts'
import {limitBodyPace} from './http/slowBodies.ts'

/** Where the listeners listen, once they do. */
export interface ListeningAt {
  port: number
  /** 0 without the HTTPS listener. */
  httpsPort: number
  /** http://loopback:port of the process's own listener. */
  internalOrigin: string
}

/** The process's listeners, as a graceful stop needs them. */
export interface Listeners {
  /** Whether the HTTPS + HTTP/2 listener (the Studio's) is there. */
  https: boolean
  listen(): Promise<ListeningAt>
  /** Stops the public listeners accepting and resolves once their requests are done (or at `deadline`). */
  drainPublic(deadline: number): Promise<void>
  /** The same for the process's own listener, closed last: a render in flight can finish. */
  drainInternal(deadline: number): Promise<void>
}

function listen(server: Server | Http2SecureServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const address = server.address()
      // A TCP listener always reports an AddressInfo; a string would mean a pipe.
      if (address === null || typeof address === 'string')
        reject(new Error(`listening on ${String(address)}, not a TCP port`))
      else resolve(address.port)
    })
  })
}

/** `http://host:port`, an IPv6 host in brackets. */
export const originOf = (host: string, port: number) =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}`

/** The HTTP edge on a public listener: its limits, connection shares, body pace and upgrades. */
function guardPublic(
  server: Server | Http2SecureServer,
  config: ServerConfig,
  limits: EdgeLimits,
  onUpgrade: ReturnType<typeof upgradeGuard>,
): void {
  applyLimits(server, limits)
  shareConnections(server, config.trustProxy, {
    max: limits.maxConnections,
    perClient: limits.maxConnectionsPerClient,
  })
  noSniff(server)
  limitBodyPace(server, {
    graceMs: limits.bodyGraceMs,
    minBytesPerSecond: limits.minBodyBytesPerSecond,
    checkIntervalMs: limits.checkIntervalMs,
  })
  server.on('clientError', onClientError)
  server.on('upgrade', onUpgrade)
}

/**
 * The app on plain HTTP (the site), on HTTPS with HTTP/2 when `tls` is given (the Studio: see
 * docs/studio.md; HTTPS_PORT=off leaves it to a TLS proxy in front), each behind the HTTP edge,
 * and on a loopback listener of the process's own (its renders and the preview proxy read the
 * lake there), which a stop closes only after the public ones have drained.
 */
export function createListeners(
  app: Hono,
  features: Feature[],
  config: ServerConfig,
  limits: EdgeLimits,
  tls: {cert: string; key: string} | undefined,
): Listeners {
  const listener = getRequestListener(app.fetch, {errorHandler: unreadableRequest})
  const http = createServer(http1Options(limits), listener)
  const https = tls
    ? createSecureServer(
        {...http2Options(limits), cert: tls.cert, key: tls.key, allowHTTP1: true},
        listener,
      )
    : undefined
  if (https) applySessionLimits(https, limits)
  const onUpgrade = upgradeGuard({
    features,
    trust: config.trustProxy,
    hostAllowed: hostPolicy(config),
  })
  const publicOnes = https ? [http, https] : [http]
  const draining = publicOnes.map(drainable)
  for (const server of publicOnes) guardPublic(server, config, limits, onUpgrade)
  const internal = createServer(http1Options(limits), listener)
  internal.on('clientError', onClientError)
  const drainingInternal = drainable(internal)
  return {
    https: https !== undefined,
    async listen() {
      const port = await listen(http, config.port, config.host)
      const httpsPort = https ? await listen(https, config.httpsPort, config.host) : 0
      const loopback = isLoopback(config.host) ? config.host : '127.0.0.1'
      const internalOrigin = originOf(loopback, await listen(internal, 0, loopback))
      return {port, httpsPort, internalOrigin}
    },
    async drainPublic(deadline) {
      await Promise.all(draining.map((server) => server.drain(deadline)))
    },
    drainInternal: (deadline) => drainingInternal.drain(deadline),
  }
}
