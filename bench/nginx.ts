import {execFileSync, spawn, type ChildProcess} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {freePort} from '../scripts/freePort.ts'
import {withChildren} from './cpu.ts'
import {nginxVersion} from './machine.ts'

export interface StaticServer {
  url: string
  /** The master and worker processes, whose CPU time the server benchmark counts. */
  pids: number[]
  stop(): Promise<void>
}

/**
 * Finds nginx, installing Debian's package when it is missing and we are root. Returns false
 * with the reason printed otherwise: the comparison is then skipped, never the whole benchmark.
 */
export function ensureNginx(): boolean {
  if (nginxVersion() !== 'not installed') return true
  if (process.getuid?.() !== 0) {
    console.log(
      '[bench] nginx is not installed and we are not root: skipping the nginx comparison (apt-get install nginx-light or nginx).',
    )
    return false
  }
  try {
    console.log('[bench] installing Debian nginx (apt-get install -y nginx)…')
    const env = {...process.env, DEBIAN_FRONTEND: 'noninteractive'}
    execFileSync('apt-get', ['update'], {stdio: 'inherit', env})
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], {
      stdio: 'inherit',
      env,
    })
  } catch (error) {
    console.log(
      `[bench] could not install nginx (${(error as Error).message}); skipping the comparison.`,
    )
    return false
  }
  return nginxVersion() !== 'not installed'
}

/**
 * Serves `pages` (URL path → HTML) as static files with a minimal nginx.conf in a temp dir:
 * what someone would put in front of a pre-rendered site. Defaults otherwise, as a user gets them.
 */
export async function startNginx(pages: Record<string, string>): Promise<StaticServer> {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-nginx-'))
  // nginx's workers run as nobody when started by root: the files must be world-readable.
  chmodSync(dir, 0o755)
  for (const [path, html] of Object.entries(pages)) {
    const folder = join(dir, 'www', path)
    mkdirSync(folder, {recursive: true})
    writeFileSync(join(folder, 'index.html'), html, {mode: 0o644})
  }
  const port = await freePort()
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes auto;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  default_type text/html;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server {
    listen 127.0.0.1:${port};
    root ${join(dir, 'www')};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`,
  )
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const url = `http://127.0.0.1:${port}`
  await waitUntilServing(url, child)
  return {
    url,
    pids: withChildren(child.pid ?? 0),
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGQUIT') // graceful shutdown: workers finish, then the master exits
      })
      rmSync(dir, {recursive: true, force: true})
    },
  }
}

/** Polls until nginx answers (it binds after forking workers), failing fast if it exits. */
async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}`)
    try {
      await fetch(url)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  child.kill('SIGKILL')
  throw new Error(`nginx did not start serving ${url}: ${stderr}`)
}
