import {execFileSync, execSync} from 'node:child_process'
import {existsSync} from 'node:fs'

/** Debian's Chromium: playwright-core cannot download its own browsers here. */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const path = execSync(`command -v ${name}`, {encoding: 'utf8', shell: '/bin/bash'}).trim()
      if (path) return path
    } catch {
      // not on PATH; try the next name
    }
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))
}

/** Finds Chromium, installing Debian's package when it is missing and we are root. */
export function ensureChromium(): string {
  const found = process.env.CHROME_PATH || findChromium()
  if (found) return found
  if (process.getuid?.() !== 0) {
    throw new Error(
      'Chromium is not installed: run `apt-get install -y chromium` (or set CHROME_PATH)',
    )
  }
  console.log('[e2e] installing Debian chromium (apt-get install -y chromium)…')
  execFileSync('apt-get', ['update'], {stdio: 'inherit'})
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env: {...process.env, DEBIAN_FRONTEND: 'noninteractive'},
  })
  const installed = findChromium()
  if (!installed) throw new Error('apt-get installed chromium but it is not on PATH')
  return installed
}

/** Launch flags that work as root on this closed network (../shared/TOOLING.md). */
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
