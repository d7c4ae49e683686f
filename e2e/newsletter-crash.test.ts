import {randomBytes} from 'node:crypto'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {SmtpSink} from '../test/support/smtpSink.ts'
import {mailingId} from '../server/newsletter/mailing.ts'
import {startChildServer} from '../test/support/childServer.ts'
import {startTestServer} from '../test/support/server.ts'

// kill -9 twice in the middle of a new-post mailing to 200 subscribers, then a restart
// (docs/newsletter.md, "Delivery"): no one is lost, and each subscriber has exactly one message
// (one Message-ID). The first kill comes before the mail server has the 61st mail (at its
// RCPT TO): that subscriber gets it on the restart, once. The second comes after the server has
// the 120th mail and before its 250 reaches us: the one window where the server holds a mail we
// never recorded, so that one subscriber alone gets a second copy of the same message.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-newsletter-crash-'))
// A random owner token: LAKE_TOKEN must be worth 128 bits (server/util/tokenStrength.ts).
const token = randomBytes(24).toString('base64url')
const cleanup: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const stop of cleanup.reverse()) await stop()
  rmSync(dataDir, {recursive: true, force: true})
})

async function mutate(url: string, mutations: unknown[]): Promise<void> {
  const res = await fetch(`${url}/v2023-07-29/data/mutate/production`, {
    method: 'POST',
    headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
    body: JSON.stringify({mutations}),
  })
  if (!res.ok) throw new Error(`mutate: ${res.status} ${await res.text()}`)
}

const subscribers = Array.from(
  {length: 200},
  (_, i) => `reader${String(i).padStart(3, '0')}@example.com`,
)

it('kill -9 twice mid-send to 200 subscribers, then a restart: no one lost, one message each', async () => {
  const sink = await new SmtpSink().listen()
  cleanup.push(() => sink.close())
  const env = {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    LAKE_TOKEN: token,
    DATA_DIR: dataDir,
    NEWSLETTER_GRACE_MINUTES: '0.005',
    NEWSLETTER_SEND_PER_MINUTE: '60000',
  }
  const start = async () => {
    const started = await startChildServer(env)
    cleanup.push(() => started.kill())
    return started
  }
  const first = await start()
  // The newsletter's first look at start (posts already out are not news) is done.
  await expect
    .poll(async () => {
      const res = await fetch(`${first.url}/v2023-07-29/data/doc/production/newsletter.state`, {
        headers: {authorization: `Bearer ${token}`},
      })
      return ((await res.json()) as {documents?: unknown[]}).documents?.length
    })
    .toBe(1)
  // Active subscribers as the confirm step leaves them (server/newsletter/subscribers.ts).
  await mutate(
    first.url,
    subscribers.map((email, i) => ({
      createOrReplace: {
        _id: `subscriber.crash${String(i).padStart(3, '0')}`,
        _type: 'subscriber',
        email,
        status: 'active',
        subscribedAt: '2026-11-01T00:00:00.000Z',
        confirmedAt: '2026-11-01T00:01:00.000Z',
      },
    })),
  )
  // Kill 1: 60 mails are in; the 61st dies at RCPT TO, before the server has anything of it.
  sink.beforeRecipient = async () => {
    if (sink.mails.length === 60) await first.kill()
  }
  await mutate(first.url, [
    {
      createOrReplace: {
        _id: 'post-crash',
        _type: 'post',
        title: 'Crash course',
        slug: {_type: 'slug', current: 'crash'},
        date: '2026-11-26',
        category: 'General',
        excerpt: 'A post sent through a crash.',
      },
    },
  ])
  await first.exited
  sink.beforeRecipient = undefined
  expect(sink.mails).toHaveLength(60)

  // Kill 2: the server has the 120th mail; the process dies before the 250 reaches it.
  // (The hook may run before start() resolves: it waits for the handle, the child for its 250.)
  const starting = start()
  sink.beforeAccept = async () => {
    if (sink.mails.length === 120) await (await starting).kill()
  }
  const second = await starting
  await second.exited
  sink.beforeAccept = undefined
  expect(sink.mails).toHaveLength(120)

  const server = await startTestServer({...env, SEED: '0'})
  cleanup.push(() => server.stop())
  const lake = server.lake!
  await expect
    .poll(() => lake.getDocument(mailingId('post-crash'))?.status, {timeout: 60_000})
    .toBe('sent')

  // Every subscriber has the post, each as exactly one message (one Message-ID of its own).
  const idsOf = new Map<string, Set<string>>()
  for (const mail of sink.mails) {
    const ids = idsOf.get(mail.envelopeTo[0]) ?? new Set()
    ids.add(String(mail.headers.get('message-id')))
    idsOf.set(mail.envelopeTo[0], ids)
  }
  expect([...idsOf.keys()].sort()).toEqual(subscribers)
  expect([...idsOf.values()].every((ids) => ids.size === 1)).toBe(true)
  expect(new Set([...idsOf.values()].flatMap((ids) => [...ids])).size).toBe(200)
  // Copies: one each, but for the mail the server had when kill 2 came (the 120th, reader119):
  // the bound of docs/newsletter.md, at most one extra copy of the same message per crash, and
  // none for a crash before the server has the mail (kill 1's reader060).
  const copies = (address: string) => sink.mails.filter((m) => m.envelopeTo[0] === address)
  expect(sink.mails).toHaveLength(201)
  expect(subscribers.filter((address) => copies(address).length > 1)).toEqual([
    'reader119@example.com',
  ])
  expect(copies('reader060@example.com')).toHaveLength(1)

  // The store: all 200 sent, the two interrupted ones on their second attempt.
  expect(lake.getDocument(mailingId('post-crash'))).toMatchObject({recipients: 200, sent: 200})
  const deliveries = await lake.query<
    Array<{subscriber: string; status: string; attempts: number}>
  >(
    '*[_type == "newsletterDelivery"]{subscriber, status, attempts} | order(subscriber asc)',
    {},
    {authenticated: true},
  )
  expect(deliveries.filter((d) => d.status !== 'sent')).toEqual([])
  expect(deliveries.filter((d) => d.attempts !== 1)).toEqual([
    {subscriber: 'subscriber.crash060', status: 'sent', attempts: 2},
    {subscriber: 'subscriber.crash119', status: 'sent', attempts: 2},
  ])
})
