import {createApp} from './app.ts'
import type {AppContext} from './context.ts'
import type {ServerConfig} from './env.ts'
import type {Lake} from './lake/index.ts'
import {internalHeaders, siteReadHeaders} from './lake/index.ts'
import {startBackupSchedule} from './backup/schedule.ts'
import {ContentEvents} from './live/contentEvents.ts'
import {liveEventsOf} from './live/subscribe.ts'
import {loadOrCreateCertificate} from './tls.ts'
import {drainTimeoutMs} from './http/drain.ts'
import {anonymousStreamsInAll, edgeLimits, type EdgeLimits} from './http/limits.ts'
import {createListeners, originOf} from './listeners.ts'
import {openOwnedContent} from './ownedContent.ts'
import {followOwnCommits} from './readYourWrites.ts'

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

/**
 * What the features are handed (server/context.ts): the site reads the content store with the
 * lake's own credential, a site process's token, or none; its own listener's origin is known
 * only once it listens.
 */
function appContext(
  config: ServerConfig,
  lake: Lake | undefined,
  limits: EdgeLimits,
  internalOrigin: () => string,
): AppContext {
  const readHeaders = lake
    ? internalHeaders(lake)
    : config.siteReadToken
      ? siteReadHeaders(config.siteReadToken)
      : {}
  return {
    config,
    lake,
    internalOrigin,
    contentOrigin: () => config.lakeUrl ?? internalOrigin(),
    contentHeaders: () => readHeaders,
    contentEvents: new ContentEvents(),
    maxAnonymousStreamsInAll: anonymousStreamsInAll(limits),
  }
}

/**
 * Starts the process: opens (and seeds) the lake unless a hosted project or LAKE_URL is
 * configured (ownedContent.ts), then listens on plain HTTP (the site) and, unless it is a site
 * process, HTTPS with HTTP/2 (the Studio; see docs/studio.md), listeners.ts. The site follows the
 * content store's live events in every mode: the default process subscribes to its own lake over
 * loopback. Port 0 picks free ports, which the tests use; `limits` (server/http/limits.ts) are
 * shorter in the tests that prove them.
 */
export async function startServer(
  options: ServerConfig,
  limits: EdgeLimits = edgeLimits,
): Promise<RunningServer> {
  // Features read ports and SITE_URL at request time: with port 0 they are known only after listen.
  const config = {...options}
  const defaultSiteUrl = config.siteUrl === `http://localhost:${config.port}`
  const content = await openOwnedContent(config)
  const lake = content?.lake
  let internalOrigin = ''
  const ctx = appContext(config, lake, limits, () => internalOrigin)
  const {contentEvents} = ctx
  const {app, features} = createApp(ctx)
  // Without the HTTPS listener no certificate is needed, and none is generated.
  const tls = config.httpsListener
    ? await loadOrCreateCertificate(config.dataDir, {cert: config.tlsCert, key: config.tlsKey})
    : undefined
  const listeners = createListeners(app, features, config, limits, tls)
  const at = await listeners.listen()
  internalOrigin = at.internalOrigin
  const publicHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  config.port = at.port
  config.httpsPort = at.httpsPort
  if (defaultSiteUrl) config.siteUrl = `http://localhost:${at.port}`
  const backups = lake ? startBackupSchedule(config) : undefined
  // A content process serves no pages: nothing to keep fresh.
  if (config.serveSite) contentEvents.start(liveEventsOf(ctx))
  if (config.serveSite && lake) followOwnCommits(lake, contentEvents)

  let closed = false
  return {
    url: originOf(publicHost, at.port),
    httpsUrl: listeners.https ? `https://localhost:${at.httpsPort}` : config.siteUrl,
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
      const drained = listeners.drainPublic(deadline)
      // Long-lived ones would hold the drain to its deadline: listen streams get `disconnect`,
      // WebSockets a close frame; the outbox abandons a send in flight, which stays pending in
      // the lake and is resumed on the next start (server/contact/outbox.ts).
      for (const feature of features) await feature.close?.()
      await drained
      // Every render has finished: nothing reads the lake over loopback any more.
      await listeners.drainInternal(deadline)
      await backups?.stop()
      content?.close()
    },
  }
}
