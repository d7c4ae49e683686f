/**
 * Studio cold load: the wire bytes a fresh browser downloads before the Studio's login screen
 * shows, and the time to it and on to the desk (the structure's post lists) after logging in;
 * as served (brotli over HTTP/2) and uncompressed (as before precompression, server/studio/
 * static.ts), on the loopback link and on a slow 4G link, where the owner often works.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {chromium, type Browser} from 'playwright-core'
import {chromiumFlags, ensureChromium} from '../scripts/chromium.ts'
import {measurePreviewKeystrokes, previewTable, previewTargetMs} from './previewKeystroke.ts'
import {startServerProcess, type ServerProcess} from './serverProcess.ts'
import {fmt, kb} from './stats.ts'
import type {Cell, Section} from './types.ts'

/**
 * Lighthouse's mobile throttling ("slow 4G"): 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
 * up; a hotel or mobile link of the kind the issue names.
 */
const slow4g = {latency: 150, downloadThroughput: (1.6 * 1e6) / 8, uploadThroughput: 750e3 / 8}

interface Case {
  name: string
  /** `identity`: the browser accepts no compression (the bytes as they went out before). */
  identity?: boolean
  network?: typeof slow4g
}

const cases: Case[] = [
  {name: 'as served (brotli), loopback'},
  {name: 'uncompressed, loopback', identity: true},
  {name: 'as served (brotli), slow 4G', network: slow4g},
  {name: 'uncompressed, slow 4G', identity: true, network: slow4g},
]

interface Measured {
  loginBytes: number
  loginRequests: number
  loginMs: number
  deskBytes: number
  deskMs: number
}

/** One cold load in a fresh context (empty cache), then the login, to the desk. */
async function measure(browser: Browser, server: ServerProcess, item: Case): Promise<Measured> {
  const password = readFileSync(join(server.dataDir, 'owner-token'), 'utf8').trim()
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: {width: 1400, height: 1000},
    ...(item.identity && {extraHTTPHeaders: {'accept-encoding': 'identity'}}),
  })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    if (item.network)
      await cdp.send('Network.emulateNetworkConditions', {offline: false, ...item.network})
    let bytes = 0
    let requests = 0
    // encodedDataLength: what crossed the wire for the response, headers included.
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength
      requests++
    })
    const start = performance.now()
    await page.goto(`${server.url}/studio`, {waitUntil: 'commit', timeout: 180_000})
    const provider = page.getByText('Owner password').first()
    await provider.waitFor({timeout: 180_000})
    const loginMs = performance.now() - start
    const loginBytes = bytes
    const loginRequests = requests
    await provider.click()
    await page.waitForURL(/\/studio-login\?/)
    await page.fill('#password', password)
    const submitted = performance.now()
    await page.click('button[type=submit]')
    await page.getByTestId('pane-item-All posts').waitFor({timeout: 180_000})
    return {
      loginBytes,
      loginRequests,
      loginMs,
      deskBytes: bytes,
      deskMs: performance.now() - submitted,
    }
  } finally {
    await context.close()
  }
}

export async function run(): Promise<Section> {
  const server = await startServerProcess()
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || ensureChromium(),
    headless: true,
    args: chromiumFlags,
  })
  const results: Array<Case & Measured> = []
  let keystrokes: number[] = []
  let keystrokeFailure: string | undefined
  try {
    // A first load warms the server (the renderer, the lake's workers): not measured.
    await measure(browser, server, cases[0])
    for (const item of cases) {
      const measured = await measure(browser, server, item)
      results.push({...item, ...measured})
      console.log(
        `[studio] ${item.name}: ${kb(measured.loginBytes, 0)} before the login screen in ` +
          `${fmt(measured.loginMs / 1000, 2)} s; desk ${fmt(measured.deskMs / 1000, 2)} s after login`,
      )
    }
    // After the cold loads, which it would otherwise warm: the keystroke's own logged-in page.
    const password = readFileSync(join(server.dataDir, 'owner-token'), 'utf8').trim()
    try {
      keystrokes = await measurePreviewKeystrokes(browser, server, password)
    } catch (error) {
      keystrokeFailure = error instanceof Error ? error.message.split('\n')[0] : String(error)
      console.error('[studio] the preview keystroke failed:', error)
    }
  } finally {
    await browser.close()
    await server.stop()
  }
  const rows: Cell[][] = results.map((r) => [
    r.name,
    kb(r.loginBytes, 0),
    r.loginRequests,
    `${fmt(r.loginMs / 1000, 2)} s`,
    kb(r.deskBytes, 0),
    `${fmt(r.deskMs / 1000, 2)} s`,
    `${fmt((r.loginMs + r.deskMs) / 1000, 2)} s`,
  ])
  const served = results.find((r) => r.name === cases[0].name)
  const raw = results.find((r) => r.name === cases[1].name)
  const slowestKeystroke = Math.max(...keystrokes)
  const targets = [
    served && raw
      ? `Target (issue #14: the Studio's assets go out precompressed, like the site's) — cold load before the login screen at most a third of its uncompressed bytes: ${served.loginBytes <= raw.loginBytes / 3 ? 'MET' : 'MISSED'} (${kb(served.loginBytes, 0)} of ${kb(raw.loginBytes, 0)}).`
      : 'Target (precompressed cold load) not measured: a case failed.',
    keystrokes.length > 0
      ? `Target (issue #13: the preview follows typing within ${previewTargetMs / 1000} s of the last keystroke) on every edit: ${slowestKeystroke <= previewTargetMs ? 'MET' : 'MISSED'} (${keystrokes.join(', ')} ms).`
      : `Target (preview keystroke ≤ ${previewTargetMs / 1000} s) not measured: ${keystrokeFailure ?? 'no edit ran'}.`,
  ]
  return {
    name: 'studio',
    title: 'Studio: cold load (fresh browser cache, HTTP/2 over TLS) and the preview keystroke',
    tables: [
      {
        title: 'Bytes on the wire before the login screen shows, and the time to the desk',
        columns: [
          'case',
          'wire bytes to login screen',
          'requests',
          'time to login screen',
          'wire bytes to desk',
          'login → desk',
          'total (typing excluded)',
        ],
        rows,
      },
      ...(keystrokes.length > 0 ? [previewTable(keystrokes)] : []),
    ],
    notes: [
      ...targets,
      'Wire bytes are Chromium’s encodedDataLength (compressed body plus headers) summed over every response; "uncompressed" sends Accept-Encoding: identity, which is what every Studio chunk cost before precompression.',
      'In the uncompressed cases Chromium fetches the chunks again after the login page (the overridden Accept-Encoding header keeps them out of its cache), so their "to desk" columns are an upper bound; compare the login-screen columns.',
      'Slow 4G is Lighthouse’s mobile throttling: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up (CDP Network.emulateNetworkConditions).',
      ...(served && raw
        ? [
            `Precompression cuts the cold load before the login screen from ${kb(raw.loginBytes, 0)} to ${kb(served.loginBytes, 0)} (${fmt((100 * served.loginBytes) / raw.loginBytes, 0)} %).`,
          ]
        : []),
    ],
    data: {coldLoads: results, keystrokes},
  }
}
