import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Hono} from 'hono'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {AppContext} from '../context.ts'
import {readConfig} from '../env.ts'
import {Lake} from '../lake/index.ts'
import {errorResponse} from '../http/errorResponse.ts'
import {mountContact, type ContactOptions} from './feature.ts'
import {inboxMessages} from './testing/inboxWait.ts'
import {ContentEvents} from '../live/contentEvents.ts'

// The relay in process (request in, response out) on a real lake; SMTP is off here, see
// e2e/contact-relay.test.ts for mail. Every refusal must leave the inbox empty.
const site = 'http://localhost:3000'
const endpoint = `${site}/api/contact`
const valid = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Could you edit my novel?',
  _next: `${site}/contact`,
}
let dataDir: string
let lake: Lake

function appWith(
  options: ContactOptions = {},
  env: Record<string, string> = {},
  withLake = true,
): Hono {
  const ctx: AppContext = {
    config: readConfig({SITE_URL: site, DATA_DIR: dataDir, ...env}),
    lake: withLake ? lake : undefined,
    internalOrigin: () => site,
    contentOrigin: () => site,
    contentHeaders: () => ({}),
    contentEvents: new ContentEvents(),
  }
  const app = new Hono()
  app.onError(errorResponse)
  mountContact(app, ctx, options)
  return app
}

function form(app: Hono, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return app.request(endpoint, {method: 'POST', body: new URLSearchParams(fields), headers})
}

function json(app: Hono, body: unknown) {
  return app.request(endpoint, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: {'content-type': 'application/json', accept: 'application/json'},
  })
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-contact-'))
  lake = new Lake({dataDir, projectId: 'scriptorium', dataset: 'production'})
})
afterEach(() => {
  lake.close()
  rmSync(dataDir, {recursive: true, force: true})
})

/** A redirect to `address` with the relay's one-time toast marker (server/http/sentMarkers.ts). */
const sentTo = (address: string) =>
  new RegExp(`^${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?sent=[\\w-]{22}$`)

describe('POST /api/contact', () => {
  it('stores a native post privately, then redirects 303 to _next', async () => {
    const app = appWith({now: () => new Date('2026-11-21T10:00:00Z')})
    const res = await form(app, {
      ...valid,
      _subject: 'Editing',
      _template: 'box',
      _captcha: 'false',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(sentTo(`${site}/contact`))
    const [stored] = await inboxMessages(lake)
    expect(stored).toMatchObject({
      _type: 'contactMessage',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Could you edit my novel?',
      page: `${site}/contact`,
      subject: 'Editing',
      receivedAt: '2026-11-21T10:00:00.000Z',
      status: 'pending',
      attempts: 0,
    })
    expect(stored._id).toMatch(/^inbox\.[0-9a-f-]{36}$/)
    expect(await lake.query('*[_type == "contactMessage"]')).toEqual([])
    expect(await lake.query('*[_id in path("inbox.**")]._id')).toEqual([])
  })

  it('answers JSON posts with {success: true}, and takes multipart forms', async () => {
    const app = appWith()
    const res = await json(app, valid)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({success: true})
    const body = new FormData()
    for (const [key, value] of Object.entries(valid)) body.set(key, value)
    expect((await app.request(endpoint, {method: 'POST', body})).status).toBe(303)
    expect(await inboxMessages(lake)).toHaveLength(2)
  })

  it('refuses every invalid post with a 4xx a person understands, storing nothing', async () => {
    const app = appWith()
    const cases: Array<[Record<string, string>, string]> = [
      [{...valid, name: ''}, 'Please enter your name.'],
      [{email: valid.email, message: valid.message}, 'Please enter your name.'],
      [{...valid, email: '  '}, 'Please enter your email address.'],
      [{...valid, message: ' \n '}, 'Please enter a message.'],
      [
        {...valid, email: 'ada.example.com'},
        'Please enter a valid email address, like name@example.com.',
      ],
      [
        {...valid, email: `${'a'.repeat(320)}@example.com`},
        'Please enter a valid email address, like name@example.com.',
      ],
      [{...valid, name: 'n'.repeat(201)}, 'Please shorten your name to 200 characters or fewer.'],
      [
        {...valid, message: 'm'.repeat(10_001)},
        'Please shorten your message to 10,000 characters or fewer.',
      ],
    ]
    for (const [fields, message] of cases) {
      const res = await form(app, fields)
      expect(res.status, message).toBe(400)
      const page = await res.text()
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(page).toContain(`<p role="alert">${message}</p>`)
      expect(page).toContain(`<a href="${fields._next ?? '/contact'}">Back to the contact page</a>`)
      const answer = await json(app, fields)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({success: false, message})
    }
    expect(await inboxMessages(lake)).toEqual([])
  })

  it('refuses unreadable, mistyped, oversized and non-text bodies', async () => {
    const app = appWith()
    const expectRefusal = async (res: Response, status: number, message: RegExp) => {
      expect(res.status).toBe(status)
      expect(await res.json()).toEqual({success: false, message: expect.stringMatching(message)})
    }
    await expectRefusal(await json(app, '{"name": '), 400, /could not be read/)
    await expectRefusal(await json(app, [valid]), 400, /must be a JSON object/)
    await expectRefusal(await json(app, {...valid, name: 7}), 400, /“name” must be text/)
    await expectRefusal(
      await app.request(endpoint, {
        method: 'POST',
        body: 'hello',
        headers: {'content-type': 'text/plain', accept: 'application/json'},
      }),
      415,
      /x-www-form-urlencoded/,
    )
    const huge = new URLSearchParams({...valid, message: 'x'.repeat(70_000)})
    const tooBig = await form(app, Object.fromEntries(huge))
    expect(tooBig.status).toBe(413)
    expect(await tooBig.text()).toContain('Your message is too long to send.')
    // Without Content-Length (chunked), the limit is enforced while reading.
    const stream = new Blob([huge.toString()]).stream()
    const chunked = await app.request(endpoint, {
      method: 'POST',
      body: stream,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'transfer-encoding': 'chunked',
        accept: 'application/json',
      },
      // @ts-expect-error -- Node's fetch needs duplex for a streamed body; lib.dom lacks it
      duplex: 'half',
    })
    expect(chunked.status).toBe(413)
    expect(await inboxMessages(lake)).toEqual([])
  })

  it('answers a filled honeypot as success and keeps it as spam', async () => {
    const app = appWith()
    const res = await form(app, {...valid, _honey: 'https://cheap-pills.example'})
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(sentTo(`${site}/contact`))
    expect((await inboxMessages(lake)).map((m) => m.status)).toEqual(['spam'])
  })

  it('never redirects off the site', async () => {
    const app = appWith()
    for (const next of ['https://evil.example/phish', '//evil.example/', 'javascript:alert(1)']) {
      const res = await form(app, {...valid, _next: next})
      expect(res.headers.get('location'), next).toMatch(sentTo('/contact'))
    }
    const relative = await form(app, {...valid, _next: '/contact?sent=1'})
    // A marker in _next is replaced by a fresh one (server/http/sentMarkers.ts).
    expect(relative.headers.get('location')).toMatch(sentTo(`${site}/contact`))
  })

  it('limits each client to 5 messages per 10 minutes with a 429', async () => {
    let now = Date.parse('2026-11-21T10:00:00Z')
    const app = appWith({rateLimit: {now: () => now}})
    for (let i = 0; i < 5; i++) expect((await form(app, valid)).status).toBe(303)
    const limited = await form(app, valid)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('600')
    expect(await limited.text()).toContain('Please try again in 10 minutes.')
    const limitedJson = await json(app, valid)
    expect(await limitedJson.json()).toEqual({
      success: false,
      message: 'You have sent several messages in a short time. Please try again in 10 minutes.',
    })
    expect(await inboxMessages(lake)).toHaveLength(5)
    now += 10 * 60_000 + 1
    expect((await form(app, valid)).status).toBe(303)
    expect(await inboxMessages(lake)).toHaveLength(6)
  })

  it('without a lake (hosted mode): 503, or 307 on to CONTACT_ACTION', async () => {
    const hosted = appWith({}, {SANITY_STUDIO_PROJECT_ID: 'abc123'}, false)
    const res = await hosted.request(endpoint, {
      method: 'POST',
      body: new URLSearchParams(valid),
      headers: {accept: 'application/json'},
    })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({
      success: false,
      message: expect.stringContaining('not available'),
    })
    const relayed = appWith(
      {},
      {
        SANITY_STUDIO_PROJECT_ID: 'abc123',
        CONTACT_ACTION: 'https://formsubmit.co/owner@writer.example',
      },
      false,
    )
    const forwarded = await form(relayed, valid)
    expect(forwarded.status).toBe(307)
    expect(forwarded.headers.get('location')).toBe('https://formsubmit.co/owner@writer.example')
  })
})
