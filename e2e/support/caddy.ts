import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ensureDebianCommand} from './debianPackage.ts'

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

/** How long Caddy may take to start (it makes its internal CA on the first start). */
const startTimeoutMs = 30_000

/** A free loopback port: bind port 0, read it, release it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

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
  const stateDir = mkdtempSync(join(tmpdir(), 'scriptorium-caddy-'))
  const config = join(stateDir, 'Caddyfile')
  writeFileSync(config, loopbackCaddyfile({...options, stateDir}))
  const child = spawn(caddy, ['run', '--adapter', 'caddyfile', '--config', config], {
    env: {
      PATH: process.env.PATH,
      HOME: stateDir,
      XDG_DATA_HOME: stateDir,
      XDG_CONFIG_HOME: stateDir,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
    rmSync(stateDir, {recursive: true, force: true})
  }
  try {
    await new Promise<void>((resolve, reject) => {
      let log = ''
      const timer = setTimeout(
        () => reject(new Error(`Caddy did not start within ${startTimeoutMs} ms:\n${log}`)),
        startTimeoutMs,
      )
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        log = (log + chunk).slice(-8000)
        if (log.includes('serving initial configuration')) {
          clearTimeout(timer)
          resolve()
        }
      })
      void exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`Caddy exited:\n${log}`))
      })
    })
  } catch (error) {
    await stop()
    throw error
  }
  // Keep draining its log so Caddy never blocks on a full pipe.
  child.stderr.resume()
  return {origin: `https://localhost:${options.port}`, port: options.port, stop}
}
