import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {launchBrowser} from '../scripts/browser.ts'
import {caddyPorts, startCaddy, type RunningCaddy} from './support/caddy.ts'
import {startTestServer} from '../test/support/server.ts'
import {
  createFromMenu,
  fillPostFields,
  logIn,
  studioContext,
  watchContext,
} from './studio-driver.ts'
import {pasteRichBody} from './studio-editor.ts'
import {
  expectOnBlog,
  LakeView,
  publish,
  publishCategories,
  slugOf,
  wholeBody,
} from './studio-lake.ts'

// The production topology on loopback (docs/deploy.md): Caddy, from deploy/Caddyfile, terminates
// TLS (`tls internal` here, a public certificate in production) and speaks HTTP/2 to the
// browser; the server behind it has HTTPS_PORT=off, TRUST_PROXY=loopback and SITE_URL = Caddy's
// origin. The owner logs in and publishes through Caddy, and the site shows the post through
// Caddy with every absolute URL on that origin.
type Server = Awaited<ReturnType<typeof startTestServer>>

let caddy: RunningCaddy
let server: Server
let browser: Browser
let context: BrowserContext
let page: Page
let watch: ReturnType<typeof watchContext>

/** The protocols the page's own requests went over (navigation and resources), by origin. */
async function protocols(target: Page, origin: string): Promise<string[]> {
  const entries = await target.evaluate(() =>
    performance
      .getEntriesByType('navigation')
      .concat(performance.getEntriesByType('resource'))
      .map((entry) => {
        const timing = entry as PerformanceResourceTiming
        return {name: timing.name, protocol: timing.nextHopProtocol}
      }),
  )
  return [
    ...new Set(
      entries.filter((e) => e.name.startsWith(origin) && e.protocol).map((e) => e.protocol),
    ),
  ]
}

describe('behind Caddy', () => {
  beforeAll(async () => {
    const ports = await caddyPorts()
    server = await startTestServer({
      SEED: '0',
      HTTPS_PORT: 'off',
      TRUST_PROXY: 'loopback',
      SITE_URL: `https://localhost:${ports.port}`,
    })
    // No seed: the categories a post picks by reference are published first.
    await publishCategories(server.lake)
    caddy = await startCaddy({...ports, upstream: new URL(server.url).host})
    browser = await launchBrowser()
    context = await studioContext(browser)
    watch = watchContext(context)
    page = await context.newPage()
  })

  afterAll(async () => {
    await browser?.close()
    await caddy?.stop()
    await server?.stop()
  })

  it('answers over HTTP/2 with HSTS, the server’s own compression, and health through the proxy', async () => {
    expect(server.httpsUrl).toBe(caddy.origin)
    const home = await page.goto(`${caddy.origin}/`)
    expect(home?.status()).toBe(200)
    const headers = await home!.allHeaders()
    expect(headers['strict-transport-security']).toBe('max-age=31536000')
    // No `encode` in Caddy: the page and the Studio's chunks keep the server's brotli.
    expect(headers['content-encoding']).toBe('br')
    const chunk = await page.request.get(`${caddy.origin}/studio/`, {
      headers: {'accept-encoding': 'br'},
    })
    const script = (await chunk.text()).match(/src="(\/studio\/assets\/[^"]+\.js)"/)?.[1]
    expect(script).toBeDefined()
    const asset = await page.request.get(`${caddy.origin}${script}`, {
      headers: {'accept-encoding': 'br'},
    })
    expect(asset.headers()['content-encoding']).toBe('br')
    expect(await protocols(page, caddy.origin)).toEqual(['h2'])
    // Not a navigation: a plain-text page has no icon link, and Chromium would ask /favicon.ico.
    const ready = await page.request.get(`${caddy.origin}/readyz`)
    expect([ready.status(), await ready.text()]).toEqual([200, 'ready\n'])
  })

  it(
    'logs into the Studio, publishes a post over HTTP/2, and the site shows it with canonical URLs on Caddy’s origin',
    {timeout: 110_000},
    async () => {
      const lake = new LakeView(server.lake)
      await logIn(page, caddy.origin, server.lake?.token ?? '')
      expect(new URL(page.url()).origin).toBe(caddy.origin)

      const category = 'Fiction'
      const title = `A ${category} story`
      const {id} = await createFromMenu(page, 'Post')
      await fillPostFields(page, {
        title,
        date: '2024-05-15',
        excerpt: 'Published through Caddy.',
        category,
      })
      const href = 'https://example.com/fiction'
      await pasteRichBody(page, category, href)
      await lake.until(`drafts.${id}`, wholeBody(category), 'the whole body')
      await publish(page, lake, id, title)
      // Every request of the Studio, its lake calls and the publish included, went over HTTP/2.
      expect(await protocols(page, caddy.origin)).toEqual(['h2'])

      const site = await context.newPage()
      await expectOnBlog(site, caddy.origin, category, href)
      const postUrl = `${caddy.origin}/blog/${slugOf(title)}`
      expect(site.url()).toBe(postUrl)
      await expect(site.locator('link[rel="canonical"]').getAttribute('href')).resolves.toBe(
        postUrl,
      )
      await expect(site.locator('meta[property="og:url"]').getAttribute('content')).resolves.toBe(
        postUrl,
      )
      // No absolute URL in the page points past the proxy at the server's own port.
      const html = await site.content()
      expect(html).not.toContain(new URL(server.url).host)
      expect(await protocols(site, caddy.origin)).toEqual(['h2'])
      await site.close()

      expect(watch.foreignRequests).toEqual([])
      expect(watch.consoleErrors.join('\n')).toBe('')
    },
  )
})
