import type {Browser, BrowserContext, Page} from 'playwright-core'

/**
 * The embedded Studio's pages as the browser tests (e2e/studio-driver.ts) and the benches
 * (bench/previewKeystroke.ts) drive them in Chromium.
 */

/** A new context that accepts the server's self-signed certificate. */
export function studioContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ignoreHTTPSErrors: true, viewport: {width: 1400, height: 1000}})
}

/**
 * Logs in through our login page, starting at the plain-HTTP /studio (which redirects), and waits
 * for the Studio's structure (the page's default timeout, or `timeoutMs`).
 */
export async function logIn(
  page: Page,
  siteUrl: string,
  password: string,
  timeoutMs?: number,
): Promise<void> {
  await page.goto(`${siteUrl}/studio`)
  await page.getByText('Owner password').first().click()
  await page.waitForURL(/\/studio-login\?/)
  await page.fill('#password', password)
  await page.click('button[type=submit]')
  await page
    .getByTestId('pane-item-All posts')
    .waitFor(timeoutMs === undefined ? {} : {timeout: timeoutMs})
}

/** The open document's title field shows `title`. */
export async function waitForTitle(page: Page, title: string | undefined): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      document.querySelector<HTMLInputElement>('[data-testid="field-title"] input')?.value ===
      expected,
    title,
  )
}
