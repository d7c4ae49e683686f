import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

export interface ServerProcess {
  /** http://127.0.0.1:port of the site listener. */
  url: string
  pid: number
  dataDir: string
  /** The last 8,000 characters the process wrote to stdout (its log lines). */
  output(): string
  /** Stops the process (SIGTERM, then SIGKILL after 10 s) and removes a data dir it created. */
  stop(): Promise<void>
}

const root = new URL('..', import.meta.url).pathname

/**
 * Runs the production server (server/main.ts) as its own process on a free loopback port, so the
 * load generator, Lighthouse and the server never share an event loop and its memory is its own.
 * Without `dataDir` it gets a fresh temp data dir seeded from content/seed.ndjson.
 */
export async function startServerProcess(
  options: {
    dataDir?: string
    seed?: boolean
    /** A fixed port (a restarted content process keeps its address); 0 by default. */
    port?: number
    /** More environment: SERVE_SITE, LAKE_URL, LAKE_TOKEN… */
    env?: Record<string, string>
  } = {},
): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'scriptorium-bench-'))
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(options.port ?? 0),
      HTTPS_PORT: '0',
      DATA_DIR: dataDir,
      SEED: options.seed === false ? '0' : '1',
      // No automatic backup in the middle of a measurement (bench/backupScale.ts measures them).
      BACKUP_INTERVAL_MINUTES: '0',
      // As `npm run serve` and deploy/scriptorium.service run it.
      MALLOC_ARENA_MAX: '2',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-4000)))
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out = (out + chunk).slice(-8000)))
  const url = await siteUrl(child, () => log)
  const stop = async () => {
    await terminate(child)
    if (!options.dataDir) rmSync(dataDir, {recursive: true, force: true})
  }
  return {url, pid: child.pid ?? 0, dataDir, output: () => out, stop}
}

/** Reads the "Site: http://…" line server/main.ts prints once it listens. */
function siteUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (chunk: string) => {
      out += chunk
      const match = out.match(/Site:\s+(http:\/\/\S+)/)
      if (match) {
        child.stdout?.off('data', onData)
        child.stdout?.resume() // keep draining so the child never blocks on a full pipe
        child.off('exit', onExit)
        resolve(match[1])
      }
    }
    const onExit = (code: number | null) =>
      reject(new Error(`server exited (${code}) before listening:\n${out}${stderr()}`))
    child.stdout?.setEncoding('utf8').on('data', onData)
    child.once('exit', onExit)
  })
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** VmRSS and VmHWM (peak RSS) of a process in bytes, from /proc/<pid>/status. */
export function memoryOf(pid: number): {rss: number; hwm: number} {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) =>
    Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN) * 1024
  return {rss: field('VmRSS'), hwm: field('VmHWM')}
}
