import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {SmtpSink} from '../server/contact/testing/smtpSink.ts'
import {mailingId} from '../server/newsletter/mailing.ts'
import {startTestServer} from '../test/support/server.ts'

// kill -9 in the middle of a new-post mailing to 200 subscribers, then a restart: every
// subscriber has the post exactly once (docs/newsletter.md: at most once, no one lost).
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-newsletter-crash-'))
const token = 'newsletter-crash-test-owner-token-0123456789'
const cleanup: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const stop of cleanup.reverse()) await stop()
  rmSync(dataDir, {recursive: true, force: true})
})

/** The real server (server/main.ts) in a child process we can kill; resolves with its site URL. */
function startChild(env: Record<string, string>): Promise<{child: ChildProcess; url: string}> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {...process.env, PORT: '0', HTTPS_PORT: '0', SEED: '0', DATA_DIR: dataDir, ...env},
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  cleanup.push(() => void child.kill('SIGKILL'))
  return new Promise((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = out.match(/Site:\s+(http:\/\/\S+)/)?.[1]
      if (url) resolve({child, url})
    })
  })
}

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

it('kill -9 mid-send to 200 subscribers, then a restart: each gets the post exactly once', async () => {
  const sink = await new SmtpSink().listen()
  cleanup.push(() => sink.close())
  const env = {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    LAKE_TOKEN: token,
    NEWSLETTER_GRACE_MINUTES: '0.005',
    NEWSLETTER_SEND_PER_MINUTE: '60000',
  }
  const {child, url} = await startChild(env)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  // The newsletter's first look at start (posts already out are not news) is done.
  await expect
    .poll(async () => {
      const res = await fetch(`${url}/v2023-07-29/data/doc/production/newsletter.state`, {
        headers: {authorization: `Bearer ${token}`},
      })
      return ((await res.json()) as {documents?: unknown[]}).documents?.length
    })
    .toBe(1)
  // Active subscribers as the confirm step leaves them (server/newsletter/subscribers.ts).
  await mutate(
    url,
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
  // The 60th mail reaches the SMTP server and the process dies before hearing it was accepted.
  sink.beforeAccept = async () => {
    if (sink.mails.length !== 60) return
    child.kill('SIGKILL')
    await exited
  }
  await mutate(url, [
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
  await exited
  sink.beforeAccept = undefined
  expect(sink.mails).toHaveLength(60)

  const server = await startTestServer({...env, DATA_DIR: dataDir, SEED: '0'})
  cleanup.push(() => server.stop())
  const lake = server.lake!
  await expect
    .poll(() => lake.getDocument(mailingId('post-crash'))?.status, {timeout: 60_000})
    .toBe('sent')
  const received = sink.mails.map((m) => m.envelopeTo[0]).sort()
  expect(received).toEqual(subscribers)
  // The one mail in flight at the kill is recorded as such, not sent again.
  expect(lake.getDocument(mailingId('post-crash'))).toMatchObject({recipients: 200, sent: 199})
  const unknown = await lake.query<number>(
    'count(*[_type == "newsletterDelivery" && status == "unknown"])',
    {},
    {authenticated: true},
  )
  expect(unknown).toBe(1)
})
