import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {SmtpSink} from '../server/contact/testing/smtpSink.ts'
import {subscribeThroughMail} from '../server/newsletter/testing/subscribeFlow.ts'
import {launchBrowser} from '../scripts/browser.ts'
import {startTestServer} from '../test/support/server.ts'

// The owner's side of issue #26: the Studio's Newsletter lists subscribers with their status,
// read-only, and the new-post mailings with their counts.
let browser: Browser
let server: Awaited<ReturnType<typeof startTestServer>>
let sink: SmtpSink

beforeAll(async () => {
  sink = await new SmtpSink().listen()
  server = await startTestServer({
    SEED: '0',
    TRUST_PROXY: 'loopback',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
  })
  await subscribeThroughMail(server, sink, 'active@example.com')
  await subscribeThroughMail(server, sink, 'waiting@example.com', false)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await sink?.close()
})

it('lists subscribers with their status and opens one read-only', async () => {
  const context = await browser.newContext({ignoreHTTPSErrors: true})
  const page = await context.newPage()
  await page.goto(`${server.httpsUrl}/studio`)
  await page.getByText('Owner password').click()
  await page.locator('#password').fill(server.lake!.token)
  await page.getByRole('button', {name: 'Log in'}).click()

  await page.getByText('Newsletter', {exact: true}).first().click()
  await page.getByText('All subscribers', {exact: true}).first().click()
  const row = page.getByText('waiting@example.com', {exact: true})
  await row.waitFor({timeout: 60_000})
  const text = await page.locator('[data-testid="document-list-pane"]').innerText()
  expect(text).toMatch(/waiting@example\.com\s+Pending – not confirmed · /)
  expect(text).toMatch(/active@example\.com\s+Active · /)

  await row.click()
  const email = page.locator('input[value="waiting@example.com"]')
  await email.waitFor({timeout: 30_000})
  expect(await email.isEditable()).toBe(false)
  await context.close()
})
