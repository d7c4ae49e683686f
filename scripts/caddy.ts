import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/** How long Caddy may take to start (it makes its internal CA on the first start). */
const startTimeoutMs = 30_000

export interface CaddyProcess {
  pid: number
  /** Stops Caddy (SIGTERM, then SIGKILL after 5 s) and removes its state. */
  stop(): Promise<void>
}

/**
 * Runs Debian's Caddy (`caddy`, its path) with the Caddyfile `config` writes for a fresh state
 * dir, kept to itself: its home, data and config in that dir, which is removed at stop. Resolves
 * once Caddy serves its configuration; rejects with its log if it exits or takes too long. Used
 * by the deploy tests (e2e/support/caddy.ts) and the scale bench (bench/caddy.ts).
 */
export async function runCaddy(
  caddy: string,
  config: (stateDir: string) => string,
): Promise<CaddyProcess> {
  const stateDir = mkdtempSync(join(tmpdir(), 'scriptorium-caddy-'))
  const file = join(stateDir, 'Caddyfile')
  writeFileSync(file, config(stateDir))
  const child = spawn(caddy, ['run', '--adapter', 'caddyfile', '--config', file], {
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
  return {pid: child.pid ?? 0, stop}
}
