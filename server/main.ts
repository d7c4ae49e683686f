import {readConfig} from './env.ts'
import {startServer} from './start.ts'

const config = readConfig()
const server = await startServer(config)
const site = config.siteUrl
console.log(`Scriptorium is running.
  Site:    ${server.url}${site !== server.url ? `  (public URL ${site})` : ''}
  Studio:  ${server.httpsUrl}/studio  (HTTP/2; the certificate is self-signed unless TLS_CERT is set)
  Data:    ${config.dataDir}`)
if (server.lake) {
  console.log(
    server.lake.tokenFile
      ? `  Owner token: in ${server.lake.tokenFile} (mode 0600)`
      : '  Owner token: from LAKE_TOKEN',
  )
} else {
  console.log(`  Content: hosted Sanity project ${config.projectId}, dataset ${config.dataset}`)
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0))
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
