import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {chromium, type Browser} from 'playwright-core'
import {chromiumFlags, ensureChromium} from './chromium.ts'

/** Launches headless Debian Chromium with the flags that work here. Close it in afterAll. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-chromium-'))
  process.env.XDG_CONFIG_HOME = home
  process.env.XDG_CACHE_HOME = home
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || ensureChromium(),
    headless: true,
    args: [...chromiumFlags, ...extraArgs],
  })
}
