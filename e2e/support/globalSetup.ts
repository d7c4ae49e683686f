import {existsSync, mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {chromium} from 'playwright-core'
import type {TestProject} from 'vitest/node'
import {chromiumFlags, ensureChromium} from '../../scripts/chromium.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's WebSocket endpoint (./sharedBrowser.ts connects to it). */
    chromiumEndpoint: string
  }
}

/**
 * Runs once before the browser tests: Chromium present, and the build the server serves; then
 * one Chromium for every file of the run (./sharedBrowser.ts), closed after the last.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.CHROME_PATH = ensureChromium()
  if (!existsSync('dist/client') && existsSync('web/entry.client.tsx')) {
    throw new Error(
      'dist/ is missing: run `npm run build` (npm test does) before the browser tests',
    )
  }
  // As scripts/browser.ts: a fresh profile home, and the flags that work here.
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-chromium-'))
  const server = await chromium.launchServer({
    executablePath: process.env.CHROME_PATH,
    headless: true,
    args: chromiumFlags,
    env: {...process.env, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: home},
  })
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return () => server.close()
}
