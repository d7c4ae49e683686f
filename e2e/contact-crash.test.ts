import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {inboxMessages, waitForMessage} from '../server/contact/testing/inboxWait.ts'
import {SmtpSink} from '../test/support/smtpSink.ts'
import {startChildServer} from '../test/support/childServer.ts'
import {startTestServer} from '../test/support/server.ts'

// The one window docs/contact.md admits: the server is killed (SIGKILL) after the mail server
// has the message and before `sent` is written. The message must go out again on the next
// start — exactly once more, with the same Message-ID — and nothing else may be resent.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-contact-crash-'))
const cleanup: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const stop of cleanup.reverse()) await stop()
  rmSync(dataDir, {recursive: true, force: true})
})

it('a crash between the SMTP accept and `sent` resends that message once, and only it', async () => {
  const sink = await new SmtpSink().listen()
  cleanup.push(() => sink.close())
  const env = {SMTP_URL: `smtp://127.0.0.1:${sink.port}`, CONTACT_TO: 'owner@writer.example'}
  const child = await startChildServer({...env, DATA_DIR: dataDir})
  cleanup.push(() => child.kill())
  const {url, exited} = child
  sink.beforeAccept = () => child.kill()
  const res = await fetch(`${url}/api/contact`, {
    method: 'POST',
    body: new URLSearchParams({name: 'Ada', email: 'ada@example.com', message: 'Crash test.'}),
    redirect: 'manual',
  })
  expect(res.status).toBe(303)
  await exited
  sink.beforeAccept = undefined
  expect(sink.mails).toHaveLength(1)

  const server = await startTestServer({...env, DATA_DIR: dataDir, SEED: '0'})
  cleanup.push(() => server.stop())
  const [crashed] = await inboxMessages(server.lake!)
  const sent = await waitForMessage(server.lake!, crashed._id, (m) => m.status === 'sent')
  expect(sent.attempts).toBe(2)

  // A later message is mailed after anything resumed, so its arrival bounds the resends.
  await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    body: new URLSearchParams({
      name: 'Grace',
      email: 'grace@example.com',
      message: 'After the crash.',
    }),
    redirect: 'manual',
  })
  await sink.waitFor(3)
  const later = (await inboxMessages(server.lake!)).find((m) => m.name === 'Grace')!
  await waitForMessage(server.lake!, later._id, (m) => m.status === 'sent')
  expect(sink.mails.map((m) => m.headers.get('message-id'))).toEqual([
    `<${crashed._id}@scriptorium.contact>`,
    `<${crashed._id}@scriptorium.contact>`,
    `<${later._id}@scriptorium.contact>`,
  ])
})
