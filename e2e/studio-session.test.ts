import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {openBrowser} from './support/sharedBrowser.ts'
import {startTestServer} from '../test/support/server.ts'
import {logIn, studioContext} from './studio-driver.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

const day = 86_400_000

describe('an expired Studio session', () => {
  let server: Server
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let now = Date.now()

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    // The lake's clock, moved by the test: sessions expire without waiting a week.
    server.lake?.configureSessions({now: () => now})
    browser = await openBrowser()
    context = await studioContext(browser)
    page = await context.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('sends the Studio back to its login screen, and the owner logs in again', async () => {
    await logIn(page, server.url, server.lake?.token ?? '')
    const token = await page.evaluate(
      () =>
        Object.entries(localStorage).find(([key]) => key.startsWith('__studio_auth_token'))?.[1],
    )
    expect(token).toContain('sess')

    now += 8 * day // past SESSION_IDLE_HOURS' default of 168 h
    await page.reload()
    await page.getByText('Owner password').first().waitFor({timeout: 60_000})
    expect(await page.getByTestId('pane-item-All posts').count()).toBe(0)

    // The Studio's requests with the stale token were not counted as guesses: login still works.
    now = Date.now()
    await page.getByText('Owner password').first().click()
    await page.waitForURL(/\/studio-login\?/)
    await page.fill('#password', server.lake?.token ?? '')
    await page.click('button[type=submit]')
    await page.getByTestId('pane-item-All posts').waitFor({timeout: 60_000})
  })
})
