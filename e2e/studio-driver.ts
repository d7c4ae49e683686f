import type {Browser, BrowserContext, Locator, Page} from 'playwright-core'
import sharp from 'sharp'
import {openBrowser} from './support/sharedBrowser.ts'
import {logIn, studioContext} from '../scripts/studioPage.ts'
import {startTestServer, type TestServer} from '../test/support/server.ts'

export {logIn, studioContext, waitForTitle} from '../scripts/studioPage.ts'

/**
 * This machine: `localhost` and every `*.localhost` name (browsers resolve them to loopback; the
 * Studio's SDK calls `scriptorium.localhost`), 127.0.0.0/8 and ::1. A local Studio requests
 * nothing else (docs/studio-protocol.md §g.5).
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === '[::1]'
  )
}

/**
 * Watches a context: every request must stay on this machine, and every console error is
 * recorded (a test expects none), as is every failed request that was not cancelled.
 */
export function watchContext(context: BrowserContext) {
  const foreignRequests: string[] = []
  const consoleErrors: string[] = []
  // Pages a test opens expecting the site's 404 (e.g. an unpublished post): Chromium logs the
  // status as an error, which is then the expected answer.
  const expectedNotFound = new Set<string>()
  context.on('request', (request) => {
    const url = new URL(request.url())
    // blob: and data: URLs are the page's own memory (e.g. an image preview before upload).
    if (url.protocol === 'blob:' || url.protocol === 'data:') return
    if (!isLoopbackHost(url.hostname)) foreignRequests.push(request.url())
  })
  const watchPage = (page: Page) =>
    page.on('console', (message) => {
      if (message.type() !== 'error') return
      const text = message.text()
      if (/status of 404/.test(text) && expectedNotFound.has(message.location().url)) return
      // A failed resource's line names no URL; its location does.
      consoleErrors.push(`${text.slice(0, 500)} (${message.location().url})`)
    })
  context.on('page', watchPage)
  context.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      consoleErrors.push(`request failed: ${request.url()} ${request.failure()?.errorText}`)
  })
  return {
    foreignRequests,
    consoleErrors,
    expectNotFound: (url: string) => expectedNotFound.add(url),
  }
}

/** The real server and a Chromium page for its Studio, as a Studio browser test starts them. */
export interface StudioUnderTest {
  server: TestServer
  browser: Browser
  /** Accepts the server's self-signed certificate; watched by `watch`. */
  context: BrowserContext
  watch: ReturnType<typeof watchContext>
  /** One page in `context`, not logged in yet. */
  page: Page
  /** Closes Chromium and stops the server. */
  stop(): Promise<void>
}

/**
 * Starts the real server (`env` as for test/support/server.ts) and Chromium with a watched
 * Studio context and one page. Call `stop` in afterAll.
 */
export async function startStudio(env: Record<string, string> = {}): Promise<StudioUnderTest> {
  const server = await startTestServer(env)
  let browser: Browser | undefined
  try {
    browser = await openBrowser()
    const context = await studioContext(browser)
    const watch = watchContext(context)
    const page = await context.newPage()
    const opened = browser
    return {
      server,
      browser: opened,
      context,
      watch,
      page,
      async stop() {
        await opened.close()
        await server.stop()
      },
    }
  } catch (error) {
    await browser?.close()
    await server.stop()
    throw error
  }
}

/**
 * Navigates inside the running Studio, as its router does on a link click (history v5: push, then
 * a popstate it listens to). A full page load would also work, but unloading the Studio makes its
 * presence client send on a socket its own beforeunload handler already closed, which Chromium
 * logs as an error ("WebSocket is already in CLOSING or CLOSED state").
 */
export async function goInStudio(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    const index = ((history.state as {idx?: number} | null)?.idx ?? 0) + 1
    history.pushState(
      {usr: null, key: Math.random().toString(36).slice(2, 10), idx: index},
      '',
      target,
    )
    dispatchEvent(new PopStateEvent('popstate', {state: history.state}))
  }, path)
}

/** The document pane's primary action button is enabled (validation and saving are done). */
export async function waitForPublishable(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const button = document.querySelector<HTMLButtonElement>('[data-testid="action-publish"]')
      return button !== null && !button.disabled
    },
    null,
    {timeout: 60_000},
  )
}

/**
 * Opens the global "create" menu (in the app: no reload of the 8 MB Studio), returns the document
 * types it offers, and when `type` is given picks it and waits for the new, empty document's form.
 * Returns the new document's id.
 */
export async function createFromMenu(
  page: Page,
  type?: string,
): Promise<{offered: string[]; id: string}> {
  const before = page.url()
  await page.getByTestId('new-document-button').click()
  const menu = page
    .locator('[data-ui="Popover"]')
    .filter({has: page.getByTestId('new-document-button-search-input')})
  await menu.locator('a').first().waitFor()
  const offered = await menu.locator('a').allInnerTexts()
  if (type === undefined) {
    await page.keyboard.press('Escape')
    return {offered, id: ''}
  }
  await menu.locator('a').filter({hasText: type}).click()
  await page.waitForURL((url) => url.href !== before && /;[0-9a-f-]{36}/.test(url.pathname))
  await page.waitForFunction(
    () =>
      document.querySelector<HTMLInputElement>('[data-testid="field-title"] input')?.value === '',
  )
  return {offered, id: new URL(page.url()).pathname.match(/;([0-9a-f-]{36})/)?.[1] ?? ''}
}

/** Fills a new post's plain fields; the slug comes from the title through "Generate". */
export async function fillPostFields(
  page: Page,
  fields: {title: string; date: string; excerpt: string; category: string},
): Promise<void> {
  await page.getByTestId('field-title').locator('input').fill(fields.title)
  await page.getByTestId('field-slug').getByRole('button', {name: 'Generate'}).click()
  await page.getByTestId('field-date').locator('input').fill(fields.date)
  await page.getByTestId('field-excerpt').locator('textarea').fill(fields.excerpt)
  await pickReference(page, 'Category', fields.category)
}

/**
 * Picks the document titled `title` in the form's reference field labelled `label`, as an owner
 * does: types the title in the reference search, chooses the option, and waits for the field to
 * show the chosen document's preview in place of the search.
 */
export async function pickReference(page: Page, label: string, title: string): Promise<void> {
  const search = page.getByLabel(label, {exact: true})
  await search.fill(title)
  await page
    .getByTestId('autocomplete-popover')
    .getByRole('option')
    .filter({hasText: title})
    .first()
    .click()
  await search.waitFor({state: 'detached'})
  await page.locator('form').getByText(title, {exact: true}).first().waitFor()
}

/** Replaces Vision's query with `query` and runs it (Ctrl+Enter). */
export async function runInVision(page: Page, query: string): Promise<void> {
  await goInStudio(page, '/studio/vision')
  await page.getByTestId('vision-query-editor').locator('.cm-content').click()
  await page.keyboard.press('Control+A')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(query)
  await page.keyboard.press('Control+Enter')
}

export async function chooseFromActionMenu(page: Page, testId: string): Promise<void> {
  // The body's toolbar has an 'action-menu-button' of its own (its "…" menu).
  await page.getByRole('button', {name: 'Open document actions'}).click()
  await page.getByTestId(testId).click()
}

export async function setPerspective(
  page: Page,
  perspective: 'published' | 'drafts',
): Promise<void> {
  await page.getByTestId('global-perspective-menu-button').click()
  await page.getByTestId(`release-${perspective}`).click()
  await page.keyboard.press('Escape')
}

/**
 * A new page of the Studio with the owner logged in, in a context of its own that accepts the
 * server's self-signed certificate (close it with `page.context().close()`).
 */
export async function ownerInStudio(browser: Browser, server: TestServer): Promise<Page> {
  const context = await browser.newContext({ignoreHTTPSErrors: true})
  const page = await context.newPage()
  await logIn(page, server.httpsUrl, server.lake!.token)
  return page
}

/**
 * Uploads a photo into the image field `name` as the owner does, through its file input: a JPEG
 * of `width` × `height` in one `color`, made here. The field is an object field, a fieldset with
 * no test id of its own, found by its header's field-actions menu, which it returns.
 */
export async function uploadPhoto(
  page: Page,
  name: string,
  photo: {fileName: string; width: number; height: number; color: string},
): Promise<Locator> {
  const field = page
    .locator('fieldset')
    .filter({has: page.getByTestId(`field-actions-menu-${name}`)})
  const {width, height, color} = photo
  const jpeg = await sharp({create: {width, height, channels: 3, background: color}})
    .jpeg()
    .toBuffer()
  await field
    .locator('input[type=file]')
    .first()
    .setInputFiles({name: photo.fileName, mimeType: 'image/jpeg', buffer: jpeg})
  return field
}

/**
 * Logs the owner in through the login page, from the plain-HTTP /studio that redirects to the
 * HTTPS listener, and returns the Studio's origin the page ended on (the HTTPS one).
 */
export async function logInOwner(studio: StudioUnderTest): Promise<string> {
  const {page, server} = studio
  await logIn(page, server.url, server.lake!.token)
  return new URL(page.url()).origin
}
