import {execFileSync, spawn, type ChildProcess} from 'node:child_process'
import {
  appendFileSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import {Agent, request} from 'node:https'
import {tmpdir} from 'node:os'
import {basename, dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {buildsName, distName} from '../server/build/layout.ts'
import {freePort} from '../scripts/freePort.ts'
import {caddyPorts, startCaddy, type RunningCaddy} from './support/caddy.ts'

// docs/deploy.md's upgrade, on loopback: Caddy from deploy/Caddyfile (its lb_try_duration) in
// front of the server, run as its own process from a copy of this checkout. While clients keep
// asking for a page, a hashed asset of the old page, the Studio and one of its chunks, the copy
// is changed and rebuilt (two `npm run build` at once, as two deploy scripts might), then the
// server is stopped and started again, as `systemctl restart` does. No request may fail.
const repo = realpathSync(new URL('..', import.meta.url).pathname)
const copy = mkdtempSync(join(tmpdir(), 'scriptorium-upgrade-'))
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-upgrade-data-'))
/** How long one request may take: a request held by Caddy through the restart included. */
const requestTimeoutMs = 20_000
/** Clients asking at once, each one request after the other. */
const clients = 2

let caddy: RunningCaddy
let upstreamPort: number
let server: ChildProcess | undefined
const stops: Array<() => Promise<void>> = []

afterAll(async () => {
  for (const stop of stops.reverse()) await stop()
  rmSync(copy, {recursive: true, force: true})
  rmSync(dataDir, {recursive: true, force: true})
})

/** The checkout's sources as git sees them (tracked and new files), its packages, its build. */
function copyCheckout(): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: repo,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '')
  for (const file of files) {
    const from = join(repo, file)
    try {
      if (!lstatSync(from).isFile()) continue
    } catch {
      continue // deleted in the work tree
    }
    mkdirSync(dirname(join(copy, file)), {recursive: true})
    cpSync(from, join(copy, file))
  }
  symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'))
  // The build npm test made, as the copy's current build (server/build/layout.ts).
  const current = realpathSync(join(repo, distName))
  cpSync(current, join(copy, buildsName, basename(current)), {recursive: true})
  symlinkSync(join(buildsName, basename(current)), join(copy, distName))
}

/** Starts `node server/main.ts` in the copy; resolves once it says it is running. */
function startServerProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: copy,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(upstreamPort),
      HTTPS_PORT: 'off',
      TRUST_PROXY: 'loopback',
      SITE_URL: caddy.origin,
      DATA_DIR: dataDir,
      MALLOC_ARENA_MAX: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 30 s:\n${log}`)), 30_000)
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-8000)
      if (log.includes('Scriptorium is running.')) {
        clearTimeout(timer)
        resolve(child)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited (${code}):\n${log}`))
    })
  })
}

/** SIGTERM, as systemd's stop sends, and the exit status once it has stopped. */
async function stopServerProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  return exited
}

const agent = new Agent({keepAlive: true, rejectUnauthorized: false})
stops.push(async () => agent.destroy())

/** GET through Caddy (its `tls internal` certificate is not trusted here): status and body. */
function get(path: string): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${caddy.origin}${path}`,
      {agent, headers: {'accept-encoding': 'identity'}, timeout: requestTimeoutMs},
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({status: res.statusCode ?? 0, body}))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${requestTimeoutMs} ms`)))
    req.on('error', reject)
    req.end()
  })
}

/** The site's entry script (the boot script loads it) and the Studio's, as their pages name them. */
async function namedAssets(): Promise<{site: string; studio: string}> {
  const home = await get('/')
  const studio = await get('/studio/')
  const site = home.body.match(/\/assets\/entry\.client-[\w-]+\.js/)?.[0]
  const studioEntry = studio.body.match(/src="(\/studio\/assets\/[^"]+\.js)"/)?.[1]
  if (!site || !studioEntry) throw new Error('the page or the Studio names no script')
  return {site, studio: studioEntry}
}

/** Runs `node scripts/build.ts` in the copy: its exit status and output. */
function build(): Promise<{status: number | null; output: string}> {
  const child = spawn(process.execPath, ['scripts/build.ts'], {
    cwd: copy,
    env: {PATH: process.env.PATH},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.once('exit', (status) => resolve({status, output})))
}

interface Outcome {
  path: string
  status: number | string
  ms: number
}

describe('an upgrade behind Caddy', () => {
  beforeAll(async () => {
    copyCheckout()
    const ports = await caddyPorts()
    upstreamPort = await freePort()
    caddy = await startCaddy({...ports, upstream: `127.0.0.1:${upstreamPort}`})
    stops.push(() => caddy.stop())
    server = await startServerProcess()
    stops.push(async () => void (server && (await stopServerProcess(server))))
  })

  it('rebuilds while serving, restarts, and fails no request: pages, old assets, the Studio', async () => {
    const old = await namedAssets()
    const paths = ['/', '/blog', old.site, '/studio/', old.studio]
    const outcomes: Outcome[] = []
    let running = true
    let reached: {count: number; resolve(): void} | undefined
    const record = (outcome: Outcome) => {
      outcomes.push(outcome)
      if (reached && outcomes.length >= reached.count) reached.resolve()
    }
    const loop = async (start: number) => {
      for (let i = start; running; i++) {
        const path = paths[i % paths.length]
        const sent = performance.now()
        try {
          const {status} = await get(path)
          record({path, status, ms: performance.now() - sent})
        } catch (error) {
          record({path, status: String(error), ms: performance.now() - sent})
        }
      }
    }
    // Each client starts at another path, so every kind is asked at any moment.
    const loops = Array.from({length: clients}, (_, n) => loop(n))

    // A change that reaches both bundles, so their hashed names change.
    appendFileSync(join(copy, 'web/entry.client.tsx'), "\nconsole.debug('upgraded')\n")
    appendFileSync(join(copy, 'studio/main.tsx'), "\nconsole.debug('upgraded')\n")
    const [first, second] = await Promise.all([build(), build()])
    expect(first.status, first.output).toBe(0)
    expect(second.status, second.output).toBe(0)
    // They took turns: one built, the other waited for it and then used its result.
    const outputs = [first.output, second.output]
    expect(outputs.filter((output) => output.includes('dist is now .builds/'))).toHaveLength(1)
    expect(outputs.filter((output) => output.includes('[build] waiting for'))).toHaveLength(1)
    expect(outputs.filter((output) => output.includes('[build] up to date'))).toHaveLength(1)
    expect(readlinkSync(join(copy, 'dist'))).toMatch(/^\.builds\//)

    // The old process still serves the build it started with: its page names the old script.
    expect(await namedAssets()).toEqual(old)
    const before = outcomes.length

    const exit = await stopServerProcess(server!)
    expect(exit).toBe(0)
    server = await startServerProcess()
    const upgraded = await namedAssets()
    expect(upgraded.site).not.toBe(old.site)
    expect(upgraded.studio).not.toBe(old.studio)
    // Every path once more from the new process, the old page's assets included.
    const after = outcomes.length
    await new Promise<void>((resolve) => {
      reached = {count: after + paths.length * clients, resolve}
    })
    running = false
    await Promise.all(loops)

    const failed = outcomes.filter((outcome) => outcome.status !== 200)
    const slowest = Math.max(...outcomes.map((outcome) => outcome.ms))
    console.log(
      `[upgrade] ${outcomes.length} requests, ${failed.length} failed, slowest ${Math.round(slowest)} ms`,
    )
    expect(failed).toEqual([])
    expect(before).toBeGreaterThan(paths.length)
    expect(outcomes.length).toBeGreaterThan(after)
  }, 300_000)
})
