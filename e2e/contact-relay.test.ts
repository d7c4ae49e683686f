import {createClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Lake} from '../server/lake/index.ts'
import {inboxMessages, waitForMessage} from '../server/contact/testing/inboxWait.ts'
import type {SmtpSink} from '../test/support/smtpSink.ts'
import {
  startServerWithMail,
  visitorAddresses,
  type ServerWithMail,
} from '../test/support/serverWithMail.ts'
import type {TestServer} from '../test/support/server.ts'

// The whole relay on the real server: HTTP in, the lake, a real SMTP server out.
// Visitors are told apart by the X-Forwarded-For our test "proxy" on loopback sets.
let running: ServerWithMail
let sink: SmtpSink
let server: TestServer
let lake: Lake
const nextVisitor = visitorAddresses()

beforeAll(async () => {
  running = await startServerWithMail({CONTACT_TO: 'owner@writer.example'})
  ;({server, sink} = running)
  lake = server.lake!
})
afterAll(() => running?.stop())

/**
 * Posts like a browser; each call comes from its own visitor (its own /24, since limits key on
 * truncated addresses) unless `from` is given.
 */
function post(
  body: URLSearchParams | string,
  headers: Record<string, string> = {},
  from = nextVisitor(),
) {
  return fetch(`${server.url}/api/contact`, {
    method: 'POST',
    body,
    headers: {'x-forwarded-for': from, ...headers},
    redirect: 'manual',
  })
}

const fields = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Could you edit my novel?\nIt is 80 000 words.',
}

describe('contact relay on the running server', () => {
  it('native post: stored, 303 back to _next, mailed to the owner, marked sent', async () => {
    const next = `${server.config.siteUrl}/contact`
    const res = await post(new URLSearchParams({...fields, _next: next}))
    expect(res.status).toBe(303)
    // With the one-time marker for the thank-you toast (server/contact/sentMarkers.ts).
    expect(res.headers.get('location')).toMatch(new RegExp(`^${next}\\?sent=[\\w-]{22}$`))
    const [stored] = await inboxMessages(lake)
    expect(stored).toMatchObject({...fields, page: next})

    const [mail] = await sink.waitFor(1)
    expect(mail.envelopeTo).toEqual(['owner@writer.example'])
    expect(mail.headers.get('from')).toBe('Scriptorium <no-reply@localhost>')
    expect(mail.headers.get('reply-to')).toBe('Ada Lovelace <ada@example.com>')
    expect(mail.headers.get('subject')).toBe('New message from Ada Lovelace via your website')
    expect(mail.text).toBe(
      `Name: Ada Lovelace\nEmail: ada@example.com\nPage: ${next}\nReceived: ${stored.receivedAt}\n\n${fields.message}\n`,
    )
    const sent = await waitForMessage(lake, stored._id, (m) => m.status === 'sent')
    expect(sent.attempts).toBe(1)
  })

  it('JSON post: {success: true}, with _subject as the subject', async () => {
    const before = sink.mails.length
    const res = await post(
      JSON.stringify({...fields, name: 'Grace', _subject: 'Ghostwriting enquiry'}),
      {
        'content-type': 'application/json',
        accept: 'application/json',
      },
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({success: true})
    const mail = (await sink.waitFor(before + 1))[before]
    expect(mail.headers.get('subject')).toBe('Ghostwriting enquiry')
  })

  it('invalid post: 400 page, nothing stored, nothing mailed', async () => {
    const stored = (await inboxMessages(lake)).length
    const res = await post(new URLSearchParams({...fields, email: 'ada(at)example.com'}))
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Please enter a valid email address')
    expect(await inboxMessages(lake)).toHaveLength(stored)
  })

  it('honeypot: answered as success, kept as spam, never mailed', async () => {
    const res = await post(new URLSearchParams({...fields, name: 'Bot', _honey: 'x'}), {
      accept: 'application/json',
    })
    expect(await res.json()).toEqual({success: true})
    const spam = (await inboxMessages(lake)).filter((m) => m.name === 'Bot')
    expect(spam.map((m) => [m.status, m.attempts])).toEqual([['spam', 0]])
    // A later message is mailed while the spam one is not: mails stay in arrival order.
    const before = sink.mails.length
    await post(new URLSearchParams({...fields, name: 'After bot'}))
    const mail = (await sink.waitFor(before + 1))[before]
    expect(mail.headers.get('subject')).toBe('New message from After bot via your website')
    expect(sink.mails.some((m) => m.text.includes('Name: Bot\n'))).toBe(false)
  })

  it('off-site _next is not followed', async () => {
    const res = await post(new URLSearchParams({...fields, _next: 'https://evil.example/'}))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/contact\?sent=[\w-]{22}$/)
  })

  it('rate limit: the sixth message in 10 minutes from one address (its /24) is a 429', async () => {
    for (let i = 0; i < 5; i++)
      expect((await post(new URLSearchParams(fields), {}, '203.0.113.50')).status).toBe(303)
    const stored = (await inboxMessages(lake)).length
    const res = await post(new URLSearchParams(fields), {}, '203.0.113.50')
    expect(res.status).toBe(429)
    expect(await res.text()).toContain('Please try again in 10 minutes.')
    expect(await inboxMessages(lake)).toHaveLength(stored)
    expect((await post(new URLSearchParams(fields), {}, '198.51.100.51')).status).toBe(303)
  })

  it('the inbox is private: anonymous clients never see it, the owner does', async () => {
    const options = {
      projectId: 'scriptorium',
      dataset: 'production',
      apiVersion: '2023-07-29',
      apiHost: server.url,
      useProjectHostname: false,
      useCdn: false,
    }
    const anonymous = createClient(options)
    expect(await anonymous.fetch('*[_type == "contactMessage"]')).toEqual([])
    expect(await anonymous.fetch('*[_id in path("inbox.**")]')).toEqual([])
    expect(await anonymous.getDocument((await inboxMessages(lake))[0]._id)).toBeUndefined()
    const owner = createClient({...options, token: lake.token})
    expect((await owner.fetch<unknown[]>('*[_type == "contactMessage"]')).length).toBeGreaterThan(5)
  })
})
