import {SMTPServer} from 'smtp-server'
import {startServerProcess} from './serverProcess.ts'
import {fmt, percentile} from './stats.ts'
import {publishUnderReads} from './publishUnderReads.ts'
import type {Section} from './types.ts'

/**
 * The new-post mail to 1,000 subscribers through a local SMTP server (smtp-server on loopback,
 * accepting everything), at an unlimited send rate, while `/blog` is read one request after
 * another: how long the mailing takes, and the server's `/blog` p99 meanwhile and at rest.
 */
const subscriberCount = 1000
const token = 'bench-newsletter-owner-token-0123456789abcdef'

export async function run(): Promise<Omit<Section, 'name'>> {
  let received = 0
  let done: () => void = () => {}
  const all = new Promise<void>((resolve) => (done = resolve))
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume()
      stream.on('end', () => {
        if (++received === subscriberCount) done()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const address = smtp.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const server = await startServerProcess({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      LAKE_TOKEN: token,
      NEWSLETTER_GRACE_MINUTES: '0',
      NEWSLETTER_SEND_PER_MINUTE: '1000000',
    },
  })
  try {
    const {seconds, rest, busy, limit, met} = await publishUnderReads({
      url: server.url,
      token,
      audience: Array.from({length: subscriberCount}, (_, i) => ({
        _id: `subscriber.bench${i}`,
        _type: 'subscriber',
        email: `reader${i}@example.com`,
        status: 'active',
        subscribedAt: '2026-11-01T00:00:00.000Z',
      })),
      post: {
        _id: 'post-bench-newsletter',
        _type: 'post',
        title: 'A post for 1,000 readers',
        slug: {_type: 'slug', current: 'bench-newsletter'},
        date: '2026-11-26',
        category: 'General',
        excerpt: 'Sent to every subscriber.',
      },
      sent: all,
    })
    return {
      title: 'Newsletter: a new post to 1,000 subscribers',
      tables: [
        {
          title: 'Sending through a local SMTP server (no rate limit), /blog read meanwhile',
          columns: [
            'subscribers',
            'mailing time',
            'mails/s',
            '/blog p99 idle',
            '/blog p99 sending',
            '/blog requests sending',
          ],
          rows: [
            [
              subscriberCount,
              `${fmt(seconds)} s`,
              fmt(subscriberCount / seconds),
              `${fmt(percentile(rest, 99))} ms`,
              `${fmt(percentile(busy, 99))} ms`,
              busy.length,
            ],
          ],
        },
      ],
      notes: [
        `Target (the hostile section's rule: sending must not steal a reader's time): /blog p99 while sending ≤ max(2 × at rest, 50 ms) = ${fmt(limit)} ms: ${met ? 'MET' : 'MISSED'} (${fmt(percentile(busy, 99))} ms).`,
        'The time runs from the publish commit to the 1,000th mail accepted by the SMTP server (grace 0).',
        'Each mail is two durable commits (sending, then sent) in the lake: bench/newsletter.ts.',
      ],
      data: {seconds, rest, busy},
    }
  } finally {
    await server.stop()
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
  }
}
