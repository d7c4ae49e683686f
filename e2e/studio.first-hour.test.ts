import type {Browser, BrowserContext, Frame, Page} from 'playwright-core'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {openBrowser} from './support/sharedBrowser.ts'
import {startTestServer} from '../test/support/server.ts'
import {goInStudio, logIn, studioContext, watchContext} from './studio-driver.ts'

// A new owner's first hour, with the sample content and one message from the contact form, in
// the real Studio and Chromium: every screen they open must log no console error
// (docs/studio-protocol.md §b for the probes, docs/preview.md for the preview's CSP).

type Server = Awaited<ReturnType<typeof startTestServer>>

/** A seeded post (content/seed.ndjson): published, never drafted. */
const seededPost = {id: 'post-headings-are-promises', slug: 'headings-are-promises'}

let server: Server
let browser: Browser
let context: BrowserContext
let page: Page
let watch: ReturnType<typeof watchContext>
let messageId: string

/**
 * The framed site once it shows `path`. The frame is same-origin, so its address is read from the
 * Studio's page: the site may move there by a client-side navigation, which fires no load.
 */
async function siteFrame(path: string): Promise<Frame> {
  await page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('iframe')].some(
        (frame) => frame.contentWindow?.location.pathname === wanted,
      ),
    path,
  )
  const frame = page
    .frames()
    .find((f) => f !== page.mainFrame() && URL.parse(f.url())?.pathname === path)
  if (!frame) throw new Error(`no framed page at ${path}`)
  return frame
}

/** The document pane's footer status (the author's initials, then what happened, and when). */
async function footerStatus(): Promise<string> {
  const status = page.getByTestId('pane-footer-document-status')
  await status.waitFor()
  return (await status.innerText()).replace(/\s+/g, ' ')
}

beforeAll(async () => {
  // The sample content, as `npm start` seeds it, and a message the relay stored (no mail server).
  server = await startTestServer({})
  const sent = await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    body: new URLSearchParams({name: 'Ada', email: 'ada@example.com', message: 'Hello there.'}),
    redirect: 'manual',
  })
  expect(sent.status).toBe(303)
  const ids: string[] = await server.lake!.query(
    '*[_type == "contactMessage"]._id',
    {},
    {authenticated: true},
  )
  messageId = ids[0]
  browser = await openBrowser()
  context = await studioContext(browser)
  watch = watchContext(context)
  page = await context.newPage()
  // The Studio is 8 MB of JavaScript; on a busy 2-core machine a first pane can take a while.
  page.setDefaultTimeout(60_000)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

it('walks the first hour: log in, a post, Diagnostics, Presentation, the inbox; no console error', async () => {
  const probes = new Map<string, number>()
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname
    if (/\/data\/ping\/|\/geoip\/country$/.test(path)) probes.set(path, response.status())
  })
  await logIn(page, server.url, server.lake!.token)

  // A seeded post: published, no draft. The footer says "Created", never "Draft created";
  // Publish is off, as for any published document.
  await goInStudio(page, `/studio/structure/posts;${seededPost.id}`)
  await page.getByTestId('field-title').waitFor()
  expect(await footerStatus()).toMatch(/^\S* ?Created (just now|\d+ (sec|min)\. ago)$/)
  // The document store's latency probe, fetched from the Studio's page as it fetches it (plain
  // `fetch`, no token); this walk does not always make the Studio send it by itself.
  const ping = await page.evaluate(async () => {
    const response = await fetch('/v2025-02-19/data/ping/production')
    await response.arrayBuffer()
    return {status: response.status, shard: response.headers.get('X-Sanity-Shard')}
  })
  expect(ping).toEqual({status: 200, shard: 'local'})
  expect(await page.getByTestId('action-publish').isDisabled()).toBe(true)
  expect(
    await server.lake!.query('count(*[_id in path("drafts.**")])', {}, {authenticated: true}),
  ).toBe(0)

  // Help → Diagnostics: the country lookup is answered (unknown), with the other probes.
  await page.getByRole('button', {name: /help/i}).click()
  await page.getByRole('menuitem', {name: 'Diagnostics'}).click()
  await page.getByText('country could not be resolved').first().waitFor()
  await page.keyboard.press('Escape')
  expect(probes.get('/v2025-02-19/geoip/country')).toBe(200)

  // Presentation on Home: both lazy sections are drawn from the server's HTML, none stays on
  // "Loading ..." waiting for a script the CSP blocks (two violations, then React error #419).
  await goInStudio(page, '/studio/presentation?preview=/')
  const home = await siteFrame('/')
  await home.getByRole('heading', {level: 2, name: 'What clients say'}).waitFor()
  await home.locator('sanity-visual-editing').waitFor({state: 'attached'})

  // The inbox: the relay's message reads "Created", like any document written published.
  await goInStudio(page, `/studio/structure/inbox;${messageId}`)
  await page.locator('textarea').filter({hasText: 'Hello there.'}).waitFor()
  expect(await footerStatus()).toMatch(/^\S* ?Created (just now|\d+ (sec|min)\. ago)$/)

  // Presentation on the post, opened afresh from the desk (from Home, the tool keeps the frame's
  // own address rather than the one asked for).
  await goInStudio(
    page,
    `/studio/presentation/post/${seededPost.id}?preview=/blog/${seededPost.slug}`,
  )
  const post = await siteFrame(`/blog/${seededPost.slug}`)
  await post.getByRole('heading', {level: 1, name: 'Headings Are Promises'}).waitFor()

  // Every probe the Studio made by itself (the ping, when it sends it) was answered.
  expect([...probes.values()].filter((status) => status !== 200)).toEqual([])
  expect(watch.foreignRequests).toEqual([])
  expect(watch.consoleErrors).toEqual([])
}, 120_000)
