import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, expect, it} from 'vitest'
import type {SmtpSink} from '../test/support/smtpSink.ts'
import {
  subscribeThroughMail,
  unsubscribeOneClick,
} from '../server/newsletter/testing/subscribeFlow.ts'
import {openBrowser} from './support/sharedBrowser.ts'
import {startServerWithMail, type ServerWithMail} from '../test/support/serverWithMail.ts'
import type {TestServer} from '../test/support/server.ts'
import {ownerInStudio} from './studio-driver.ts'

// The owner's side of issue #26: the Studio's Newsletter shows how many subscribers are in each
// state, kept live, lists them with their status, read-only, and the new-post mailings.
let browser: Browser
let running: ServerWithMail
let server: TestServer
let sink: SmtpSink

beforeAll(async () => {
  running = await startServerWithMail()
  ;({server, sink} = running)
  await subscribeThroughMail(server, sink, 'active@example.com')
  await subscribeThroughMail(server, sink, 'waiting@example.com', false)
  const leaving = await subscribeThroughMail(server, sink, 'leaving@example.com')
  expect(await unsubscribeOneClick(server, leaving)).toBe(200)
  browser = await openBrowser()
})
afterAll(async () => {
  await browser?.close()
  await running?.stop()
})

it('counts subscribers by status, live, and lists them read-only', async () => {
  const page = await ownerInStudio(browser, server)

  await page.getByText('Newsletter', {exact: true}).first().click()
  for (const title of ['All subscribers (2)', 'Active (1)', 'Pending (1)', 'Unsubscribed (1)'])
    await page.getByText(title, {exact: true}).waitFor({timeout: 60_000})
  // Counts follow the data while the Studio is open: one more pending address.
  await subscribeThroughMail(server, sink, 'later@example.com', false)
  await page.getByText('Pending (2)', {exact: true}).waitFor({timeout: 30_000})
  await page.getByText('All subscribers (3)', {exact: true}).waitFor()
  expect(await page.getByText('Active (1)', {exact: true}).count()).toBe(1)

  await page.getByText('Unsubscribed (1)', {exact: true}).click()
  await page.getByText('Only a salted hash of it is kept').waitFor({timeout: 30_000})
  expect(await page.getByText('leaving@example.com').count()).toBe(0)

  await page.getByText('All subscribers (3)', {exact: true}).click()
  const row = page.getByText('waiting@example.com', {exact: true})
  await row.waitFor({timeout: 60_000})
  const text = await page.locator('[data-testid="document-list-pane"]').innerText()
  expect(text).toMatch(/waiting@example\.com\s+Pending – not confirmed · /)
  expect(text).toMatch(/active@example\.com\s+Active · /)
  expect(text).not.toContain('leaving@example.com')

  await row.click()
  const email = page.locator('input[value="waiting@example.com"]')
  await email.waitFor({timeout: 30_000})
  expect(await email.isEditable()).toBe(false)
  await page.context().close()
})
