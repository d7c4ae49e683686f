import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Section} from './types.ts'

/**
 * `npm start` again with nothing changed (bench/run.ts runs after `npm run build`): from the
 * command to the home page's first 200. The build is reused (scripts/build.ts --if-changed), so
 * this is npm, the up-to-date check, the server's start and the first render.
 */
const root = new URL('..', import.meta.url).pathname
const runs = 3
const targetMs = 5_000
/** A start that has not served by then is recorded as failed. */
const giveUpMs = 120_000

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve()
  const pid = child.pid
  return new Promise((resolve) => {
    const timer = setTimeout(() => process.kill(-pid, 'SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    // npm, its shell and the server: the whole process group, as Ctrl-C would.
    process.kill(-pid, 'SIGTERM')
  })
}

/** One `npm start` on a fresh data dir: ms until GET / answered 200, and what the build said. */
async function startOnce(): Promise<{ms: number; reused: boolean}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-start-'))
  const started = performance.now()
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      HTTPS_PORT: '0',
      DATA_DIR: dataDir,
      BACKUP_INTERVAL_MINUTES: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    let out = ''
    const site = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start in ${giveUpMs} ms`)), giveUpMs)
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        const match = out.match(/Site:\s+(http:\/\/\S+)/)
        if (match) {
          clearTimeout(timer)
          resolve(match[1])
        }
      })
      child.stderr?.resume()
      child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)))
    })
    const response = await fetch(`${site}/`)
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`GET / answered ${response.status}`)
    return {ms: performance.now() - started, reused: out.includes('[build] up to date')}
  } finally {
    await stopGroup(child)
    rmSync(dataDir, {recursive: true, force: true})
  }
}

export async function run(): Promise<Section> {
  const results: {ms: number; reused: boolean}[] = []
  for (let i = 0; i < runs; i++) results.push(await startOnce())
  const worst = Math.max(...results.map((result) => result.ms))
  const allReused = results.every((result) => result.reused)
  return {
    name: 'start',
    title: 'npm start with nothing changed',
    tables: [
      {
        title: `npm start to the first 200 on / (${runs} runs, fresh data dir each)`,
        columns: ['run', 'ms', 'build'],
        rows: results.map((result, i) => [
          i + 1,
          Math.round(result.ms),
          result.reused ? 'reused' : 'rebuilt',
        ]),
      },
    ],
    notes: [
      `Target: serves within ${targetMs / 1000} s with nothing changed. Worst of ${runs}: ${(worst / 1000).toFixed(1)} s, build ${allReused ? 'reused every time' : 'rebuilt at least once'}: ${worst <= targetMs && allReused ? 'MET' : 'MISSED'}.`,
    ],
    data: results,
  }
}
