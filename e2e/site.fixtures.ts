import {createClient} from '@sanity/client'
import {createPreviewSecret} from '@sanity/preview-url-secret/create-secret'
import type {Browser, BrowserContextOptions, ConsoleMessage, Page, Route} from 'playwright-core'
import {previewEnablePath} from '../shared/constants.ts'
import {previewContentPath} from '../shared/siteConfig.ts'
import {openBrowser} from './support/sharedBrowser.ts'
import {startTestServer, type TestServer} from '../test/support/server.ts'

/** Helpers shared by the site's browser tests (e2e/site*.test.ts). */
export type {TestServer}

export interface PostSpec {
  slug: string
  title?: string
  date: string
  category: string
  excerpt?: string
  body?: unknown[]
}

/** A Portable Text block with one span per text (marks optional), for inline fixtures. */
export function block(
  key: string,
  text: string,
  options: {
    style?: string
    marks?: string[]
    markDefs?: unknown[]
    listItem?: string
    level?: number
  } = {},
) {
  return {
    _type: 'block',
    _key: key,
    style: options.style ?? 'normal',
    markDefs: options.markDefs ?? [],
    ...(options.listItem ? {listItem: options.listItem, level: options.level ?? 1} : {}),
    children: [{_type: 'span', _key: `${key}s`, text, marks: options.marks ?? []}],
  }
}

/** Creates published posts through the lake API (what the Studio's publish ends in). */
export async function createPosts(server: TestServer, posts: PostSpec[]): Promise<void> {
  await server.lake!.mutate(
    posts.map((p) => ({
      createOrReplace: {
        _id: `post-${p.slug}`,
        _type: 'post',
        title: p.title ?? `Post ${p.slug}`,
        slug: {_type: 'slug', current: p.slug},
        date: p.date,
        category: p.category,
        excerpt: p.excerpt ?? `Excerpt of ${p.slug}.`,
        body: p.body ?? [block('b1', `Body of ${p.slug}.`)],
      },
    })),
  )
}

/** `count` posts of `category`, dated one day apart going back from `newest` (YYYY-MM-DD). */
export function postsOf(category: string, count: number, newest: string): PostSpec[] {
  const start = Date.parse(`${newest}T00:00:00Z`)
  return Array.from({length: count}, (_, i) => ({
    slug: `${category.toLowerCase()}-${i + 1}`,
    title: `${category} ${i + 1}`,
    date: new Date(start - i * 86_400_000).toISOString().slice(0, 10),
    category,
  }))
}

/** Starts a server with an empty lake and one Chromium for a test file. */
export async function startSite(
  env: Record<string, string> = {},
): Promise<{server: TestServer; browser: Browser}> {
  const server = await startTestServer({SEED: '0', ...env})
  const browser = await openBrowser()
  return {server, browser}
}

export async function stopSite(
  site: {server?: TestServer; browser?: Browser} | undefined,
): Promise<void> {
  await site?.browser?.close()
  await site?.server?.stop()
}

/**
 * A fresh page that records console errors/warnings and uncaught errors. The document's own
 * expected 404 status is reported by Chromium as a failed resource: `allow404` ignores that.
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{page: Page; problems: string[]}> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  return {page, problems}
}

/** Problems other than Chromium's note that the page itself answered 404. */
export function unexpected(problems: string[], allow404 = false): string[] {
  return problems.filter((p) => !(allow404 && /status of 404 \(Not Found\)/.test(p)))
}

/**
 * Interacts the way a visitor first does (a key press; Shift changes nothing on the page), which
 * makes the boot script fetch the app, and waits until React has hydrated the page (it marks the
 * document as interactive).
 */
export async function hydrated(page: Page): Promise<void> {
  await page.keyboard.press('Shift')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
}

/** A 375 px touch screen. */
export const mobile = {viewport: {width: 375, height: 740}, isMobile: true, hasTouch: true}

/**
 * Keeps every script file from arriving (the requests wait, unanswered, until the page closes),
 * so a test sees the page as a visitor does before the app has loaded: only the inline boot
 * script runs. Returns the paths of the scripts the page asked for.
 */
export async function withoutApp(page: Page): Promise<string[]> {
  const asked: string[] = []
  await page.route('**/*.js', (route: Route) => {
    asked.push(new URL(route.request().url()).pathname)
    // Never answered: the page is closed with the request pending.
  })
  return asked
}

/** The two states every first interaction must work in (issue #12). */
export const appStates = [
  {name: 'before any script file has loaded', prepare: withoutApp},
  {name: 'after hydration', prepare: async () => {}, hydrate: true},
] as const

/** Puts a fresh page in `state`: holds the app, or hydrates it. */
export async function inState(
  page: Page,
  state: (typeof appStates)[number],
  url: string,
): Promise<void> {
  await state.prepare(page)
  await page.goto(url)
  if ('hydrate' in state) await hydrated(page)
}

/**
 * Enters preview mode the way the Studio's Presentation tool does (docs/preview.md): a Studio
 * session writes a preview secret with Sanity's own secret writer, and `page` opens the real
 * enable route over the HTTPS listener, which sets the preview cookie and redirects to `path`.
 * Returns the content paths the browser reads through the preview proxy from then on.
 */
export async function enterPreview(
  page: Page,
  server: TestServer,
  path: string,
): Promise<string[]> {
  const lake = server.lake
  if (!lake) throw new Error('preview needs the local lake')
  const studio = createClient({
    projectId: server.config.projectId,
    dataset: server.config.dataset,
    apiVersion: '2025-02-19',
    apiHost: server.url,
    useProjectHostname: false,
    useCdn: false,
    token: lake.createSession(),
  })
  const {secret} = await createPreviewSecret(studio, 'e2e', '/studio', 'p-owner')
  const contentReads: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith(previewContentPath)) contentReads.push(url.pathname)
  })
  const enable = new URL(previewEnablePath, server.httpsUrl)
  enable.searchParams.set('sanity-preview-secret', secret)
  enable.searchParams.set('sanity-preview-pathname', path)
  await page.goto(enable.href)
  return contentReads
}
