import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {StaticServer} from './nginx.ts'

/**
 * Starts floor.child.ts in its own process: the same pages from memory over bare node:http. Its
 * CPU per request is what Node itself costs; ours minus it is what our framework path adds.
 */
export async function startFloor(pages: Record<string, string>): Promise<StaticServer> {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-floor-'))
  const file = join(dir, 'pages.json')
  writeFileSync(file, JSON.stringify(pages))
  const child = spawn(
    process.execPath,
    [new URL('./floor.child.ts', import.meta.url).pathname, file],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const match = out.match(/listening (\d+)/)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) =>
      reject(new Error(`node:http floor exited (${code}) before listening`)),
    )
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pids: [child.pid ?? 0],
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
      rmSync(dir, {recursive: true, force: true})
    },
  }
}
