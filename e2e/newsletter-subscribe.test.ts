import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Lake} from '../server/lake/index.ts'
import type {SmtpSink} from '../test/support/smtpSink.ts'
import {addressHash} from '../server/newsletter/address.ts'
import {secretFileName} from '../server/newsletter/secret.ts'
import {subscriberId, unsubscribedId} from '../server/newsletter/subscribers.ts'
import {decodedRaw, linkIn} from '../server/newsletter/testing/mailLinks.ts'
import {mailTo} from '../server/newsletter/testing/subscribeFlow.ts'
import {signToken} from '../server/newsletter/tokens.ts'
import {
  startServerWithMail,
  visitorAddresses,
  type ServerWithMail,
} from '../test/support/serverWithMail.ts'
import type {TestServer} from '../test/support/server.ts'

// Subscriptions on the running server: HTTP in, the lake, a real SMTP server out (issue #26).
let running: ServerWithMail
let sink: SmtpSink
let server: TestServer
let lake: Lake
let secret: Buffer
let visitor = 0
const nextVisitor = visitorAddresses()

beforeAll(async () => {
  running = await startServerWithMail({NEWSLETTER_CONFIRM_PER_HOUR: '12'})
  ;({server, sink} = running)
  lake = server.lake!
  secret = Buffer.from(
    readFileSync(join(server.dataDir, secretFileName), 'utf8').trim(),
    'base64url',
  )
})
afterAll(() => running?.stop())

/** Each call from its own visitor (its own /24) unless `from` is given. */
function subscribe(email: string, extra: Record<string, string> = {}, from = nextVisitor()) {
  return fetch(`${server.url}/api/subscribe`, {
    method: 'POST',
    body: new URLSearchParams({email, ...extra}),
    headers: {'x-forwarded-for': from},
    redirect: 'manual',
  })
}

const get = (url: string) =>
  fetch(url.replace(server.config.siteUrl, server.url), {
    headers: {'x-forwarded-for': `10.200.${++visitor & 255}.1`},
  })
const postTo = (url: string, body = 'List-Unsubscribe=One-Click') =>
  fetch(url.replace(server.config.siteUrl, server.url), {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': `10.201.${++visitor & 255}.1`,
    },
  })

const stored = (email: string) => lake.getDocument(subscriberId(addressHash(secret, email)))
const subscriberCount = () =>
  lake.query<number>('count(*[_type == "subscriber"])', {}, {authenticated: true})

describe('subscribing with double opt-in', () => {
  it('the secret is kept in the data dir, readable by the server only', () => {
    expect(statSync(join(server.dataDir, secretFileName)).mode & 0o777).toBe(0o600)
  })

  it('subscribe → confirmation mail → click → active; the link works once', async () => {
    const before = sink.mails.length
    const res = await subscribe('reader@example.com')
    // Post/redirect/get: the site's "Check your inbox" page (server/newsletter/routes.test.ts).
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/subscribed')
    expect(stored('reader@example.com')).toMatchObject({status: 'pending'})
    const [mail] = (await sink.waitFor(before + 1)).slice(before)
    expect(mail.envelopeTo).toEqual(['reader@example.com'])
    expect(mail.headers.get('subject')).toContain('Confirm your subscription')
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/)
    expect(decodedRaw(mail)).toContain('Content-Type: text/html')
    const unsubscribe = linkIn(mail, '/api/unsubscribe')
    expect(mail.headers.get('list-unsubscribe')).toBe(
      `<${unsubscribe}>, <mailto:no-reply@localhost?subject=unsubscribe>`,
    )
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')

    const confirm = linkIn(mail, '/api/subscribe/confirm')
    const confirmed = await get(confirm)
    expect(confirmed.status).toBe(200)
    expect(await confirmed.text()).toContain('You are subscribed')
    expect(stored('reader@example.com')).toMatchObject({status: 'active'})

    const again = await get(confirm)
    expect(again.status).toBe(410)
    expect(await again.text()).toContain('already been used')
    expect(stored('reader@example.com')).toMatchObject({status: 'active'})
  })

  it('subscribing again the same day: the same answer, no second mail, whatever the state', async () => {
    await subscribe('twice@example.com')
    await mailTo(sink, 'twice@example.com')
    const count = sink.mails.length
    const first = await subscribe('twice@example.com')
    const active = await subscribe('reader@example.com')
    const fresh = await subscribe('fresh@example.com')
    const answers = [first, active, fresh].map(
      (res) => `${res.status} ${res.headers.get('location')}`,
    )
    expect(new Set(answers)).toEqual(new Set(['303 /subscribed']))
    // Only the fresh address was mailed (its mail arrives after the answer, as would others).
    await mailTo(sink, 'fresh@example.com')
    expect(sink.mails.slice(count).map((m) => m.envelopeTo[0])).toEqual(['fresh@example.com'])
  })

  it('a honeypot post is thanked, and nothing is stored or sent', async () => {
    const count = await subscriberCount()
    const res = await subscribe('bot@example.com', {_honey: 'http://spam.example'})
    expect(res.status).toBe(303)
    expect(await subscriberCount()).toBe(count)
    expect(stored('bot@example.com')).toBeUndefined()
  })
})

describe('bad input gets a clear 4xx and changes nothing', () => {
  it('a malformed address, and a header-injection attempt', async () => {
    const count = await subscriberCount()
    const mails = sink.mails.length
    for (const email of ['not-an-address', 'a@', '', 'x@example.com\r\nBcc: victim@example.com']) {
      const res = await subscribe(email)
      expect(res.status, email).toBe(400)
      expect(await res.text()).toMatch(/valid email address|enter your email/)
    }
    const json = await fetch(`${server.url}/api/subscribe`, {
      method: 'POST',
      body: JSON.stringify({email: 'evil@example.com\nBcc: x@example.com'}),
      headers: {'content-type': 'application/json', 'x-forwarded-for': '10.250.0.1'},
    })
    expect(json.status).toBe(400)
    expect(await json.json()).toMatchObject({success: false})
    expect(await subscriberCount()).toBe(count)
    expect(sink.mails.length).toBe(mails)
  })

  it('a forged, an expired and a malformed confirmation token', async () => {
    await subscribe('pending@example.com')
    const hash = addressHash(secret, 'pending@example.com')
    const nonce = String(stored('pending@example.com')?.confirmNonce)
    const forged = signToken(Buffer.alloc(32, 7), 'confirm', {
      sub: hash,
      nonce,
      exp: Date.now() + 60_000,
    })
    const expired = signToken(secret, 'confirm', {sub: hash, nonce, exp: Date.now() - 1})
    const wrongPurpose = signToken(secret, 'unsubscribe', {sub: hash})
    const base = `${server.url}/api/subscribe/confirm?token=`
    expect((await get(base + forged)).status).toBe(400)
    expect((await get(base + wrongPurpose)).status).toBe(400)
    expect((await get(base + 'garbage')).status).toBe(400)
    expect((await get(base + 'x'.repeat(2000))).status).toBe(400)
    const late = await get(base + expired)
    expect(late.status).toBe(410)
    expect(await late.text()).toContain('expired')
    expect(stored('pending@example.com')).toMatchObject({status: 'pending'})
  })

  it('a forged or unknown unsubscribe token', async () => {
    const count = await subscriberCount()
    const forged = signToken(Buffer.alloc(32, 9), 'unsubscribe', {
      sub: addressHash(secret, 'reader@example.com'),
    })
    const unknown = signToken(secret, 'unsubscribe', {
      sub: addressHash(secret, 'never@example.com'),
    })
    const base = `${server.url}/api/unsubscribe?token=`
    expect((await postTo(base + forged)).status).toBe(400)
    expect((await get(base + forged)).status).toBe(400)
    expect((await postTo(base + unknown)).status).toBe(404)
    expect(await subscriberCount()).toBe(count)
    expect(stored('reader@example.com')).toMatchObject({status: 'active'})
  })

  it('one client is capped at 5 subscribe posts per 10 minutes', async () => {
    const from = '10.240.0.1'
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push((await subscribe(`flood${i}@example.com`, {}, from)).status)
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429])
  })
})

describe('unsubscribing', () => {
  it('the GET link shows a button; the one-click POST deletes the address, keeping a salted hash', async () => {
    const mail = sink.mails.find((m) => m.envelopeTo[0] === 'reader@example.com')!
    const link = linkIn(mail, '/api/unsubscribe')
    const page = await get(link)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<button type="submit">Unsubscribe</button>')
    expect(stored('reader@example.com')).toMatchObject({status: 'active'})

    const res = await postTo(link)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('You are unsubscribed')
    const hash = addressHash(secret, 'reader@example.com')
    expect(stored('reader@example.com')).toBeUndefined()
    const kept = lake.getDocument(unsubscribedId(hash))
    expect(kept).toMatchObject({_type: 'unsubscribedAddress'})
    expect(JSON.stringify(kept)).not.toContain('reader@')
    // A mail client repeating the one-click POST is answered the same.
    expect((await postTo(link)).status).toBe(200)
  })

  it('the owner exports the subscribers as CSV; nobody else can', async () => {
    expect((await fetch(`${server.url}/api/subscribers.csv`)).status).toBe(401)
    const wrong = await fetch(`${server.url}/api/subscribers.csv`, {
      headers: {authorization: 'Bearer wrong-token-wrong-token-wrong-token'},
    })
    expect(wrong.status).toBe(401)
    const res = await fetch(`${server.url}/api/subscribers.csv`, {
      headers: {authorization: `Bearer ${lake.token}`},
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    const csv = await res.text()
    expect(csv.split('\r\n')[0]).toBe('email,status,subscribedAt,confirmedAt')
    expect(csv).toContain('"fresh@example.com","pending"')
    expect(csv).not.toContain('reader@example.com')
  })

  it('subscribers are private: an anonymous read of the lake never sees them', async () => {
    const res = await fetch(
      `${server.url}/v2023-07-29/data/query/production?query=${encodeURIComponent('*[_type == "subscriber"]')}`,
    )
    expect(res.status).toBe(200)
    expect((await res.json()).result).toEqual([])
  })
})
