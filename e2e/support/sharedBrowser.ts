import {chromium, type Browser} from 'playwright-core'
import {inject} from 'vitest'
import {launchBrowser} from '../../scripts/browser.ts'

/**
 * Chromium for a browser test file: a connection to the one Chromium the run shares
 * (./globalSetup.ts launches it), tens of milliseconds where launching one took 0.5–0.8 s here
 * and closing it as long again, for each of some 30 files. Each file's contexts are its own, and
 * `close()` ends only its connection (and its contexts). A run without the shared one (a file
 * started alone by other means) launches its own.
 */
export async function openBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint')
  return endpoint ? chromium.connect(endpoint) : launchBrowser()
}
