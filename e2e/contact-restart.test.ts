import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {inboxMessages, waitForMessage} from '../server/contact/testing/inboxWait.ts'
import {SmtpSink} from '../test/support/smtpSink.ts'
import {startTestServer} from '../test/support/server.ts'

// Fault test (issue #5): the mail server is down when messages arrive; the app restarts on the
// same data dir with the mail server back. Every message must arrive, and only once.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-contact-restart-'))
const cleanup: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const stop of cleanup.reverse()) await stop()
  rmSync(dataDir, {recursive: true, force: true})
})

const fields = (n: number) => ({
  name: `Visitor ${n}`,
  email: `visitor${n}@example.com`,
  message: `Message number ${n}.`,
})

async function start(smtpPort: number) {
  const server = await startTestServer({
    DATA_DIR: dataDir,
    SEED: '0',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    CONTACT_TO: 'owner@writer.example',
  })
  cleanup.push(() => server.stop())
  return server
}

async function send(url: string, n: number): Promise<number> {
  const res = await fetch(`${url}/api/contact`, {
    method: 'POST',
    body: new URLSearchParams(fields(n)),
    redirect: 'manual',
  })
  return res.status
}

it('keeps messages while SMTP is down and mails each exactly once after a restart', async () => {
  // A port where nothing listens yet: SMTP is down.
  const probe = await new SmtpSink().listen()
  const smtpPort = probe.port
  await probe.close()

  const first = await start(smtpPort)
  for (const n of [1, 2, 3]) expect(await send(first.url, n)).toBe(303)
  const stored = await inboxMessages(first.lake!)
  expect(stored.map((m) => m.name)).toEqual(['Visitor 1', 'Visitor 2', 'Visitor 3'])
  for (const message of stored) {
    const failed = await waitForMessage(first.lake!, message._id, (m) => m.status === 'failed')
    expect(failed.attempts).toBe(1)
    expect(failed.lastError).toMatch(/ECONNREFUSED/)
  }
  await first.stop()

  // SMTP back on the same address; the app restarts on the same data dir.
  const sink = await new SmtpSink().listen(smtpPort)
  cleanup.push(() => sink.close())
  const second = await start(smtpPort)
  for (const message of stored)
    await waitForMessage(second.lake!, message._id, (m) => m.status === 'sent')
  expect((await inboxMessages(second.lake!)).map((m) => [m.name, m.status, m.attempts])).toEqual([
    ['Visitor 1', 'sent', 2],
    ['Visitor 2', 'sent', 2],
    ['Visitor 3', 'sent', 2],
  ])

  // Once more: a restart must not resend what was sent. A new message goes out after anything
  // resumed (the outbox works oldest first), so when it arrives any duplicate would have too.
  await second.stop()
  const third = await start(smtpPort)
  expect(await send(third.url, 4)).toBe(303)
  await sink.waitFor(4)
  const [fourth] = (await inboxMessages(third.lake!)).filter((m) => m.name === 'Visitor 4')
  await waitForMessage(third.lake!, fourth._id, (m) => m.status === 'sent')
  expect(sink.mails.map((m) => m.headers.get('message-id'))).toEqual(
    [...stored, fourth].map((m) => `<${m._id}@scriptorium.contact>`),
  )
  expect(sink.mails.map((m) => m.text.split('\n')[0])).toEqual([
    'Name: Visitor 1',
    'Name: Visitor 2',
    'Name: Visitor 3',
    'Name: Visitor 4',
  ])
})
