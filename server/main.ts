import {readConfig} from './env.ts'
import {startServer} from './start.ts'
import {drainTimeoutMs} from './http/drain.ts'

const config = readConfig()
const server = await startServer(config)
const site = config.siteUrl
const role = config.lakeUrl
  ? `site process, content from ${config.lakeUrl}`
  : config.serveSite
    ? undefined
    : 'content process (SERVE_SITE=0): no public pages'
console.log(`Scriptorium is running.${role ? ` (${role})` : ''}
  Site:    ${server.url}${site !== server.url ? `  (public URL ${site})` : ''}`)
if (!config.lakeUrl) {
  console.log(
    `  Studio:  ${server.httpsUrl}/studio  ${
      config.httpsListener
        ? '(HTTP/2; the certificate is self-signed unless TLS_CERT is set)'
        : '(HTTPS_PORT=off: served through the TLS proxy in front)'
    }`,
  )
}
if (server.lake) {
  console.log(`  Data:    ${config.dataDir}`)
  console.log(
    server.lake.tokenFile
      ? `  Owner token: in ${server.lake.tokenFile} (mode 0600)`
      : '  Owner token: from LAKE_TOKEN',
  )
} else if (config.hostedProjectId) {
  console.log(`  Content: hosted Sanity project ${config.projectId}, dataset ${config.dataset}`)
}

/**
 * After the drain's deadline (server/http/drain.ts), closing the lake is synchronous and quick;
 * a stop that still has not finished 5 s later is stuck, and the process exits non-zero rather
 * than hang until the service manager kills it.
 */
const stopGraceMs = 5_000
/** Exit statuses of a process ended by a signal (128 + its number), as a shell reports them. */
const signalStatus = {SIGINT: 130, SIGTERM: 143}

// The graceful stop (docs/deploy.md): systemd sends SIGTERM, a terminal Ctrl-C sends SIGINT.
// A second signal means "now": exit at once; every write answered so far is already durable.
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      console.warn(`[server] ${signal} again: exiting without waiting`)
      process.exit(signalStatus[signal])
    }
    stopping = true
    console.log(
      `[server] ${signal}: stopping; requests in flight get up to ${drainTimeoutMs / 1000} s`,
    )
    setTimeout(() => {
      console.error('[server] the stop did not finish in time; exiting')
      process.exit(1)
    }, drainTimeoutMs + stopGraceMs).unref()
    server.close().then(
      () => {
        console.log('[server] stopped')
        process.exit(0)
      },
      (error: unknown) => {
        console.error('[server] the stop failed; exiting', error)
        process.exit(1)
      },
    )
  })
}

// A socket that fails after its handler has let go of it (a reset mid-write) must not end the
// process for every other visitor. Anything else is a bug: log it and exit, as Node would.
const socketErrors = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT'])
process.on('uncaughtException', (error: Error & {code?: string}) => {
  if (error.code !== undefined && socketErrors.has(error.code)) {
    console.warn(`[server] socket error ignored: ${error.code} ${error.message}`)
    return
  }
  console.error('[server] uncaught exception; exiting', error)
  process.exit(1)
})
