import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {chromiumFlags} from '../scripts/chromium.ts'

export interface DebuggableChromium {
  /** The DevTools port Lighthouse connects to. */
  port: number
  close(): Promise<void>
}

/**
 * Starts headless Debian Chromium with a DevTools port of its own choosing (port 0, read back from
 * its "DevTools listening on" line) and a throwaway profile, with the flags that work here.
 */
export function launchDebuggableChromium(chromePath: string): Promise<DebuggableChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'scriptorium-chromium-'))
  const child = spawn(
    chromePath,
    [
      '--headless=new',
      ...chromiumFlags,
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {...process.env, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile},
    },
  )
  const close = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(profile, {recursive: true, force: true})
        resolve()
      }
      if (child.exitCode !== null || child.signalCode !== null) return done()
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      child.once('exit', () => {
        clearTimeout(timer)
        done()
      })
      child.kill('SIGTERM')
    })
  return new Promise((resolve, reject) => {
    let stderr = ''
    const onData = (chunk: string) => {
      stderr += chunk
      const match = stderr.match(/DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//)
      if (match) {
        child.stderr.off('data', onData)
        child.stderr.resume() // keep draining Chromium's log so it never blocks
        child.off('exit', onExit)
        resolve({port: Number(match[1]), close})
      }
    }
    const onExit = (code: number | null) => {
      rmSync(profile, {recursive: true, force: true})
      reject(
        new Error(`Chromium exited (${code}) before opening DevTools:\n${stderr.slice(-2000)}`),
      )
    }
    child.stderr.setEncoding('utf8').on('data', onData)
    child.once('exit', onExit)
  })
}
