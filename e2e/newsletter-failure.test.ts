import {afterAll, beforeAll, expect, it} from 'vitest'
import {SmtpSink} from '../test/support/smtpSink.ts'
import {mailingId} from '../server/newsletter/mailing.ts'
import {startTestServer} from '../test/support/server.ts'

// A mailing whose mail server is down: the failures are counted on the mailing, with the
// error, for the Studio's New-post mailings list; the deliveries wait for their retry.
let server: Awaited<ReturnType<typeof startTestServer>>

beforeAll(async () => {
  // A loopback port nothing listens on any more.
  const gone = await new SmtpSink().listen()
  const port = gone.port
  await gone.close()
  server = await startTestServer({
    SEED: '0',
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    NEWSLETTER_GRACE_MINUTES: '0',
    NEWSLETTER_SEND_PER_MINUTE: '60000',
  })
})
afterAll(() => server?.stop())

it('failed sends are shown on the mailing with the last error, and kept for a retry', async () => {
  const lake = server.lake!
  // The first look at start marks the posts already out (none here) as not news.
  await expect.poll(() => lake.getDocument('newsletter.state')).toBeDefined()
  await lake.mutate(
    ['a', 'b'].map((name) => ({
      createOrReplace: {
        _id: `subscriber.fail-${name}`,
        _type: 'subscriber',
        email: `${name}@example.com`,
        status: 'active',
        subscribedAt: '2026-11-01T00:00:00.000Z',
      },
    })),
  )
  await lake.mutate([
    {
      createOrReplace: {
        _id: 'post-down',
        _type: 'post',
        title: 'Mail server down',
        slug: {_type: 'slug', current: 'down'},
        date: '2026-11-26',
        category: 'General',
      },
    },
  ])
  await expect
    .poll(() => lake.getDocument(mailingId('post-down'))?.failed, {timeout: 20_000})
    .toBe(2)
  const mailing = lake.getDocument(mailingId('post-down'))
  expect(mailing).toMatchObject({status: 'sending', recipients: 2, sent: 0})
  expect(String(mailing?.lastError)).toMatch(/ECONNREFUSED|connect/i)
  const waiting = await lake.query<
    Array<{status: string; attempts: number; nextAttemptAt: string}>
  >('*[_type == "newsletterDelivery"]{status, attempts, nextAttemptAt}', {}, {authenticated: true})
  expect(waiting).toHaveLength(2)
  for (const delivery of waiting) {
    expect(delivery).toMatchObject({status: 'failed', attempts: 1})
    // The contact relay's backoff: the first retry 30 s later.
    expect(Date.parse(delivery.nextAttemptAt)).toBeGreaterThan(Date.now() + 20_000)
  }
})
