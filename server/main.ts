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
