import {execSync, spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/** Debian's Caddy (apt-get install caddy), as e2e/support/caddy.ts runs it; undefined if absent. */
export function caddyPath(): string | undefined {
  try {
    return execSync('command -v caddy', {encoding: 'utf8', shell: '/bin/bash'}).trim() || undefined
  } catch {
    return undefined
  }
}

function freePort(): Promise<number> {
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

export interface RunningCaddy {
  /** http://127.0.0.1:<port> */
  url: string
  pid: number
  stop(): Promise<void>
}

/**
 * Caddy on a loopback port in front of `upstreams`, load-balanced as deploy/Caddyfile.scale
 * spreads the site processes (least connections), over plain HTTP: the load generator speaks
 * HTTP/1.1, and TLS would measure the handshake code rather than the spread. No admin endpoint,
 * its state in a temp dir.
 */
export async function startCaddy(caddy: string, upstreams: string[]): Promise<RunningCaddy> {
  const port = await freePort()
  const stateDir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-caddy-'))
  const config = join(stateDir, 'Caddyfile')
  writeFileSync(
    config,
    `{
\tadmin off
\tauto_https off
\tstorage file_system {
\t\troot ${join(stateDir, 'storage')}
\t}
}

http://127.0.0.1:${port} {
\treverse_proxy ${upstreams.join(' ')} {
\t\tlb_policy least_conn
\t}
}
`,
  )
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
      const timer = setTimeout(() => reject(new Error(`Caddy did not start:\n${log}`)), 30_000)
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
  child.stderr.resume()
  return {url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop}
}
