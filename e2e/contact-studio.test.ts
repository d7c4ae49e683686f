import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {inboxMessages, waitForMessage} from '../server/contact/testing/inboxWait.ts'
import {SmtpSink} from '../test/support/smtpSink.ts'
import {openBrowser} from './support/sharedBrowser.ts'
import {startTestServer} from '../test/support/server.ts'
import {ownerInStudio} from './studio-driver.ts'
import {stopSite} from './site.fixtures.ts'

// The owner's side of issue #5: the Studio's Inbox lists the relay's messages newest first,
// each row showing who wrote and the delivery status, and opens them read-only.
let browser: Browser
let server: Awaited<ReturnType<typeof startTestServer>>
const sink = new SmtpSink()

async function send(fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    redirect: 'manual',
  })
  expect(res.status).toBe(303)
  const all = await inboxMessages(server.lake!)
  return all[all.length - 1]._id
}

beforeAll(async () => {
  await sink.listen()
  server = await startTestServer({
    SEED: '0',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    CONTACT_TO: 'owner@writer.example',
  })
  const sent = await send({name: 'Ada Sent', email: 'ada@example.com', message: 'Mailed fine.'})
  await waitForMessage(server.lake!, sent, (m) => m.status === 'sent')
  await send({name: 'Bot Spam', email: 'bot@example.com', message: 'Cheap pills', _honey: 'x'})
  await sink.close()
  const failed = await send({
    name: 'Grace Failed',
    email: 'grace@example.com',
    message: 'The mail server was down.',
  })
  await waitForMessage(server.lake!, failed, (m) => m.status === 'failed')
  browser = await openBrowser()
})
afterAll(() => stopSite({browser, server}))

it('lists the inbox newest first with each status, and opens a message read-only', async () => {
  const page = await ownerInStudio(browser, server)

  await page.getByText('Inbox', {exact: true}).first().click()
  const firstRow = page.getByText('Grace Failed <grace@example.com>')
  await firstRow.waitFor({timeout: 60_000})
  const text = await page.locator('[data-testid="document-list-pane"]').innerText()
  // Rows read top to bottom: newest first; each row's subtitle carries its status.
  const order = ['Grace Failed', 'Bot Spam', 'Ada Sent'].map((name) => text.indexOf(name))
  expect(order.every((i) => i >= 0)).toBe(true)
  expect([...order].sort((a, b) => a - b)).toEqual(order)
  expect(text).toMatch(/Grace Failed <grace@example\.com>\s+Failed – will retry · /)
  expect(text).toMatch(/Bot Spam <bot@example\.com>\s+Spam · /)
  expect(text).toMatch(/Ada Sent <ada@example\.com>\s+Sent · /)

  await firstRow.click()
  const message = page.locator('textarea').filter({hasText: 'The mail server was down.'})
  await message.waitFor({timeout: 30_000})
  expect(await message.isEditable()).toBe(false)
  await page.context().close()
})
