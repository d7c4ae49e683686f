import {createServer, type Server} from 'node:http'
import {createSecureServer, type Http2SecureServer} from 'node:http2'
import {getRequestListener} from '@hono/node-server'
import {createApp} from './app.ts'
import type {AppContext} from './context.ts'
import type {ServerConfig} from './env.ts'
import {startAutoRedirects} from '../content/autoRedirects.ts'
import {upgradeSiteCopy} from '../content/upgrade.ts'
import {Lake, ReleaseScheduler, seedIfEmpty, touchesPublic} from './lake/index.ts'
import {acquireDataDirLock} from './backup/lock.ts'
import {siteSearchWarmQuery} from './siteForLake.ts'
import {startBackupSchedule} from './backup/schedule.ts'
import {internalHeaders, siteReadHeaders} from './lake/index.ts'
import {ContentEvents} from './live/contentEvents.ts'
import {liveEventsOf} from './live/subscribe.ts'
import {loadOrCreateCertificate} from './tls.ts'
import {onClientError, unreadableRequest, upgradeGuard} from './http/edge.ts'
import {isLoopback} from './http/clientAddress.ts'
import {shareConnections} from './http/connections.ts'
import {limitBodyPace} from './http/slowBodies.ts'
import {noSniff} from './http/noSniff.ts'
import {drainable, drainTimeoutMs} from './http/drain.ts'
import {hostPolicy} from './http/hostCheck.ts'
import {
  anonymousStreamsInAll,
  applyLimits,
  applySessionLimits,
  edgeLimits,
  http1Options,
  http2Options,
  type EdgeLimits,
} from './http/limits.ts'

export interface RunningServer {
  /** http://host:port of the plain HTTP listener (the site). */
  url: string
  /**
   * https://localhost:port of the HTTP/2 listener (the Studio); with HTTPS_PORT=off, SITE_URL,
   * where the TLS proxy in front serves it.
   */
  httpsUrl: string
  lake: Lake | undefined
  config: ServerConfig
  /** This process's subscription to the content store's live events. */
  contentEvents: ContentEvents
  /**
   * The graceful stop: stops accepting, ends listen streams and WebSockets, lets in-flight
   * requests finish (at most `drainTimeoutMs`, server/http/drain.ts), stops the outbox and the
   * backups, then closes SQLite. Every write that was answered is durable before its answer.
   */
  close(): Promise<void>
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

/**
 * Starts the process: opens (and seeds) the lake unless a hosted project or LAKE_URL is
 * configured, then listens on plain HTTP (the site) and, unless it is a site process, HTTPS with
 * HTTP/2 (the Studio; see docs/studio.md). The site follows the content store's live events in
 * every mode: the default process subscribes to its own lake over loopback.
 * Port 0 picks free ports, which the tests use; `limits` (server/http/limits.ts) are shorter in
 * the tests that prove them.
 */
export async function startServer(
  options: ServerConfig,
  limits: EdgeLimits = edgeLimits,
): Promise<RunningServer> {
  // Features read ports and SITE_URL at request time: with port 0 they are known only after listen.
  const config = {...options}
  const defaultSiteUrl = config.siteUrl === `http://localhost:${config.port}`
  // A site process (LAKE_URL) and hosted mode keep no data here.
  const ownsData = !config.hostedProjectId && !config.lakeUrl
  // The data dir's lock (server/backup/lock.ts): a restore refuses while this server holds it.
  const dataLock = ownsData ? acquireDataDirLock(config.dataDir) : undefined
  const lake = ownsData
    ? new Lake({
        dataDir: config.dataDir,
        projectId: config.projectId,
        dataset: config.dataset,
        token: config.lakeToken,
        siteReadToken: config.siteReadToken,
        warmQuery: siteSearchWarmQuery,
      })
    : undefined
  if (lake && config.seed)
    await seedIfEmpty(lake, {dataDir: config.dataDir, siteUrl: config.siteUrl})
  // A data dir from before the site's copy was content gets its documents (docs/site-editing.md).
  if (lake) await upgradeSiteCopy(lake)
  // A published post's or category's slug change leaves a 301 from the old address.
  if (lake) startAutoRedirects(lake)
  // Publishes scheduled releases on time, and at start those due while the process was down.
  const scheduler = lake ? new ReleaseScheduler(lake) : undefined
  await scheduler?.start()

  let internalOrigin = ''
  const contentEvents = new ContentEvents()
  const readHeaders = lake
    ? internalHeaders(lake)
    : config.siteReadToken
      ? siteReadHeaders(config.siteReadToken)
      : {}
  const ctx: AppContext = {
    config,
    lake,
    internalOrigin: () => internalOrigin,
    contentOrigin: () => config.lakeUrl ?? internalOrigin,
    contentHeaders: () => readHeaders,
    contentEvents,
    maxAnonymousStreamsInAll: anonymousStreamsInAll(limits),
  }
  const {app, features} = createApp(ctx)
  // Without the HTTPS listener no certificate is needed, and none is generated.
  const tls = config.httpsListener
    ? await loadOrCreateCertificate(config.dataDir, {cert: config.tlsCert, key: config.tlsKey})
    : undefined

  const listener = getRequestListener(app.fetch, {errorHandler: unreadableRequest})
  const http = createServer(http1Options(limits), listener)
  // HTTPS_PORT=off: a TLS proxy in front speaks HTTP/2 to browsers (docs/deploy.md).
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
  const listeners = https ? [http, https] : [http]
  const draining = listeners.map(drainable)
  for (const server of listeners) {
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
  // The site's own renders (and the preview proxy) read the lake over loopback. They get a
  // listener of their own, closed only after the public ones have drained: a render still in
  // flight when a stop begins can then finish, though the public listeners no longer accept.
  const internal = createServer(http1Options(limits), listener)
  internal.on('clientError', onClientError)
  const drainingInternal = drainable(internal)
  const port = await listen(http, config.port, config.host)
  const httpsPort = https ? await listen(https, config.httpsPort, config.host) : 0
  const loopback = isLoopback(config.host) ? config.host : '127.0.0.1'
  const origin = (host: string, p: number) =>
    `http://${host.includes(':') ? `[${host}]` : host}:${p}`
  internalOrigin = origin(loopback, await listen(internal, 0, loopback))
  const publicHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  config.port = port
  config.httpsPort = httpsPort
  if (defaultSiteUrl) config.siteUrl = `http://localhost:${port}`
  const backups = lake ? startBackupSchedule(config) : undefined
  // A content process serves no pages: nothing to keep fresh.
  if (config.serveSite) contentEvents.start(liveEventsOf(ctx))
  if (config.serveSite && lake) {
    // Read-your-writes in one process: a page asked for right after a publish waits for the
    // stream to deliver it (ContentEvents.upToDate); the stream alone still drops the pages.
    let lastPublic = lake.revision
    lake.onCommit((tx) => {
      if (touchesPublic(tx)) lastPublic = tx.seq
    })
    contentEvents.followCommits(() => lastPublic)
  }

  let closed = false
  return {
    url: origin(publicHost, port),
    httpsUrl: https ? `https://localhost:${httpsPort}` : config.siteUrl,
    lake,
    config,
    contentEvents,
    async close() {
      if (closed) return
      closed = true
      // First, so the process's own subscription does not try to reconnect to itself.
      contentEvents.close()
      const deadline = Date.now() + drainTimeoutMs
      // Stop accepting first; requests already in flight (a write waiting for its fsync) finish.
      const drained = Promise.all(draining.map((server) => server.drain(deadline)))
      // Long-lived ones would hold the drain to its deadline: listen streams get `disconnect`,
      // WebSockets a close frame; the outbox abandons a send in flight, which stays pending in
      // the lake and is resumed on the next start (server/contact/outbox.ts).
      for (const feature of features) await feature.close?.()
      await drained
      // Every render has finished: nothing reads the lake over loopback any more.
      await drainingInternal.drain(deadline)
      await backups?.stop()
      scheduler?.stop()
      lake?.close()
      dataLock?.release()
    },
  }
}
