import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {runCaddy} from '../../scripts/caddy.ts'
import {ensureDebianCommand} from '../../scripts/debianPackage.ts'
import {freePort} from '../../scripts/freePort.ts'

/** The production Caddyfiles (docs/deploy.md), which the tests run with loopback changes only. */
const deployCaddyfiles = {
  /** One process. */
  one: new URL('../../deploy/Caddyfile', import.meta.url),
  /** One content process (3000) and site processes (3001, 3002). */
  scale: new URL('../../deploy/Caddyfile.scale', import.meta.url),
}
/** What deploy/Caddyfile names and the test replaces: the domain and the upstream. */
const deployDomain = 'writer.example'
const deployUpstream = '127.0.0.1:3000'

/**
 * deploy/Caddyfile for loopback: the site block answers `localhost:<port>` (and the
 * `scriptorium.localhost` the Studio's SDK calls) with `tls internal` instead of a public
 * certificate, and proxies to `upstream`; the global options keep Caddy to itself: no admin
 * endpoint, no change to the system's trust store, no port 80, its state in `stateDir`.
 */
export function loopbackCaddyfile(options: {
  port: number
  httpPort: number
  upstream: string
  stateDir: string
  /** deploy/Caddyfile.scale: and the site processes' addresses for its 3001 and 3002. */
  sites?: [string, string]
}): string {
  const file = options.sites ? deployCaddyfiles.scale : deployCaddyfiles.one
  const deploy = readFileSync(file, 'utf8')
  const siteBlock = `${deployDomain} {`
  const upstreams: Array<[string, string]> = [[deployUpstream, options.upstream]]
  if (options.sites)
    upstreams.push(['127.0.0.1:3001', options.sites[0]], ['127.0.0.1:3002', options.sites[1]])
  if (!deploy.includes(siteBlock) || upstreams.some(([name]) => !deploy.includes(name)))
    throw new Error(`${file.pathname} no longer has "${siteBlock}" and its upstreams`)
  let site = deploy.replace(
    siteBlock,
    `localhost:${options.port}, scriptorium.localhost:${options.port} {\n\ttls internal`,
  )
  for (const [name, address] of upstreams) site = site.replace(name, address)
  return `{
\tadmin off
\tskip_install_trust
\tauto_https disable_redirects
\thttp_port ${options.httpPort}
\thttps_port ${options.port}
\tstorage file_system {
\t\troot ${join(options.stateDir, 'storage')}
\t}
}

${site}`
}

export interface RunningCaddy {
  /** https://localhost:<port>: the public origin, as SITE_URL names it. */
  origin: string
  port: number
  stop(): Promise<void>
}

/** Picks Caddy's ports; the server must know its SITE_URL before Caddy starts. */
export async function caddyPorts(): Promise<{port: number; httpPort: number}> {
  return {port: await freePort(), httpPort: await freePort()}
}

/** Runs Debian's Caddy (installed when missing) with deploy/Caddyfile adapted for loopback. */
export async function startCaddy(options: {
  port: number
  httpPort: number
  upstream: string
  sites?: [string, string]
}): Promise<RunningCaddy> {
  const caddy = ensureDebianCommand('caddy', 'caddy')
  const {stop} = await runCaddy(caddy, (stateDir) => loopbackCaddyfile({...options, stateDir}))
  return {origin: `https://localhost:${options.port}`, port: options.port, stop}
}
