import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  startNewsletterUnderTest,
  type NewsletterUnderTest,
} from '../../test/support/newsletterUnderTest.ts'
import {linkIn} from './testing/mailLinks.ts'
import {mailTo} from './testing/subscribeFlow.ts'

// Issue #35 and security review 3 (L2, I3): the subscribe form answers with a redirect to a
// page, refuses other sites' posts, and one flood of addresses at one domain cannot close the
// form for everyone; the newsletter's own pages carry a Content-Security-Policy. Each test
// mails its own domains: the cap below counts per domain.
let running: NewsletterUnderTest

beforeAll(async () => {
  running = await startNewsletterUnderTest({NEWSLETTER_CONFIRM_PER_HOUR: '3'})
})
afterAll(() => running?.stop())

const subscribe = (email: string, headers?: Record<string, string>) =>
  running.subscribe(email, headers)

const stored = (email: string) =>
  running.server.lake.query<number>(
    'count(*[_type == "subscriber" && email == $email])',
    {email},
    {authenticated: true},
  )

describe('the subscribe form', () => {
  it('a native post is answered 303 to the "Check your inbox" page (a reload posts nothing)', async () => {
    const res = await subscribe('prg@one.test')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/subscribed')
    expect(res.headers.get('cache-control')).toBe('no-store')
    await mailTo(running.sink, 'prg@one.test')
    expect(await stored('prg@one.test')).toBe(1)
  })

  it('a JSON caller still gets {success, message}', async () => {
    const res = await subscribe('json@two.test', {accept: 'application/json'})
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      success: true,
      message: expect.stringContaining('a mail is on its way'),
    })
  })

  it('a post from another site is refused with 403: nothing stored, nothing sent', async () => {
    const crossSite = await subscribe('crossed1@example.com', {'sec-fetch-site': 'cross-site'})
    const foreign = await subscribe('crossed2@example.com', {origin: 'https://evil.example'})
    const opaque = await subscribe('crossed3@example.com', {origin: 'null'})
    for (const res of [crossSite, foreign, opaque]) {
      expect(res.status).toBe(403)
      expect(await res.text()).toContain('Please subscribe with the form on this site.')
    }
    for (const email of ['crossed1@example.com', 'crossed2@example.com', 'crossed3@example.com'])
      expect(await stored(email)).toBe(0)
    // The site's own pages (by SITE_URL or the address the request came to) are let through.
    const same = await subscribe('same@three.test', {
      origin: running.server.url,
      'sec-fetch-site': 'same-origin',
    })
    const bySiteUrl = await subscribe('site@four.test', {origin: running.server.config.siteUrl})
    expect([same.status, bySiteUrl.status]).toEqual([303, 303])
    await mailTo(running.sink, 'same@three.test')
    await mailTo(running.sink, 'site@four.test')
    expect(running.sink.mails.filter((m) => m.envelopeTo[0].startsWith('crossed'))).toEqual([])
  })

  it('the hourly confirmation cap counts per recipient domain: a flood at one does not close the form', async () => {
    const flood = []
    for (let i = 0; i < 5; i++) flood.push((await subscribe(`victim${i}@Third-Party.test`)).status)
    // NEWSLETTER_CONFIRM_PER_HOUR=3 for that domain, whoever posts.
    expect(flood).toEqual([303, 303, 303, 429, 429])
    const honest = await subscribe('honest@reader.test')
    expect(honest.status).toBe(303)
    await mailTo(running.sink, 'honest@reader.test')
  })
})

describe('the newsletter’s answer pages', () => {
  it('carry a Content-Security-Policy that lets no script run and only this site frame them', async () => {
    const url = running.server.url
    await subscribe('csp@five.test')
    const mail = await mailTo(running.sink, 'csp@five.test')
    const onServer = (link: string) => link.replace(running.server.config.siteUrl, url)
    const pages = [
      await fetch(`${url}/api/subscribe/confirm?token=garbage`),
      await fetch(onServer(linkIn(mail, '/api/unsubscribe'))),
      await fetch(onServer(linkIn(mail, '/api/subscribe/confirm'))),
      await subscribe('not-an-address'),
    ]
    expect(pages.map((res) => res.status)).toEqual([400, 200, 200, 400])
    for (const res of pages) {
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain("frame-ancestors 'self'")
      expect(csp).toContain("form-action 'self'")
      expect(csp).toMatch(/style-src 'sha256-[\w+/=]+'/)
      expect(csp).not.toContain('script-src')
      await res.body?.cancel()
    }
  })
})
