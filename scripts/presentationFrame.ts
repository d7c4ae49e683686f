import type {Frame, Page} from 'playwright-core'

/**
 * The site framed by the Studio's Presentation tool, as the browser tests
 * (e2e/studio.presentation.test.ts) and the preview keystroke bench (bench/previewKeystroke.ts)
 * drive it in Chromium.
 */

/** The framed site once it shows `path` (waiting for the frame to get there, up to 60 s). */
export async function siteFrame(page: Page, path: string): Promise<Frame> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const frame = page
      .frames()
      .find((f) => f !== page.mainFrame() && URL.parse(f.url())?.pathname === path)
    if (frame) return frame
    if (Date.now() > deadline) throw new Error(`no framed page at ${path}`)
    await page.waitForEvent('framenavigated', {timeout: 60_000})
  }
}

/**
 * Waits, within `withinMs`, until `shown` resolves in the frame showing `path`. The Studio may put
 * a new frame in place of the old one meanwhile (it does now and then while a first draft is
 * created, or before the overlays connect): then it looks again in whichever frame shows the page.
 */
async function inSiteFrame(
  page: Page,
  path: string,
  withinMs: number,
  shown: (frame: Frame, timeout: number) => Promise<unknown>,
): Promise<void> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const frame = await siteFrame(page, path)
    const done = await shown(frame, Math.max(1, deadline - Date.now()))
      .then(() => true)
      .catch((error: unknown) => {
        if (Date.now() >= deadline) throw error
        return false
      })
    if (done) return
  }
}

/** Waits until the framed page at `path` shows `title` as its heading. */
export function framedHeading(
  page: Page,
  path: string,
  title: string,
  {withinMs = 10_000, exact = false}: {withinMs?: number; exact?: boolean} = {},
): Promise<void> {
  return inSiteFrame(page, path, withinMs, (frame, timeout) =>
    frame.getByRole('heading', {level: 1, name: title, exact}).waitFor({timeout}),
  )
}

/** Waits until visual editing's overlays are drawn in the framed page at `path`. */
export function overlaysDrawn(page: Page, path: string, withinMs = 30_000): Promise<void> {
  return inSiteFrame(page, path, withinMs, (frame, timeout) =>
    frame.locator('sanity-visual-editing').waitFor({state: 'attached', timeout}),
  )
}
