import {forwardedRead, forwarderHolding} from '../../test/support/heldUpstream.ts'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {localClient} from '../../test/support/localClient.ts'
import {startTestServer} from '../../test/support/server.ts'
import {seededPostCount} from '../../test/support/seededPosts.ts'
import {SmtpSink} from '../../test/support/smtpSink.ts'
import {mailTo, onServer} from '../newsletter/testing/subscribeFlow.ts'
import {linkIn} from '../newsletter/testing/mailLinks.ts'
import {createPreviewSecret} from '@sanity/preview-url-secret/create-secret'
import {apiVersion} from '../../shared/constants.ts'
import {previewCookieName} from '../http/previewCookie.ts'

// A site process (LAKE_URL) in front of a content process (SERVE_SITE=0), both the real server
// in this process on loopback: what a public page's browser asks of the site that only the
// content process can answer is forwarded, bounded, and answered plainly when it is away.
type Server = Awaited<ReturnType<typeof startTestServer>>
let content: Server
let site: Server
let sink: SmtpSink

beforeAll(async () => {
  sink = await new SmtpSink().listen()
  // The site passes the visitor's address on; the content process believes it from loopback.
  content = await startTestServer({
    SERVE_SITE: '0',
    TRUST_PROXY: 'loopback',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
  })
  // Behind a TLS proxy (X-Forwarded-Proto believed from loopback), as preview needs HTTPS.
  site = await startTestServer({LAKE_URL: content.url, NEWSLETTER: '1', TRUST_PROXY: 'loopback'})
})
afterAll(async () => {
  await site?.stop()
  await content?.stop()
  await sink?.close()
})

const inbox = () =>
  content.lake!.query<string[]>(
    '*[_id in path("inbox.**")]._id',
    {},
    {authenticated: true, perspective: 'raw'},
  )
const message = {name: 'Ada', email: 'ada@example.com', message: 'Through the site process.'}

/** Behind a TLS proxy, as preview needs HTTPS (TRUST_PROXY=loopback believes the header). */
const https = {'x-forwarded-proto': 'https'}

/** A draft of a seeded post with a new title, written in the content process's lake. */
async function writeDraft(id: string, title: string): Promise<void> {
  const published = await content.lake!.query<Record<string, unknown>>(`*[_id == $id][0]`, {id})
  await content.lake!.mutate([{createOrReplace: {...published, _id: `drafts.${id}`, title}}])
}

/**
 * What the Presentation tool does: write a secret with the Studio's session, then open the
 * enable link on `through`; the headers of a browser holding the preview cookie.
 */
async function enablePreview(through: Server, path: string): Promise<Record<string, string>> {
  const studio = localClient(content.url, {
    apiVersion: '2025-02-19',
    token: content.lake!.createSession(),
  })
  const {secret} = await createPreviewSecret(studio, 'test', '/studio', 'p-owner')
  const enable = await fetch(
    `${through.url}/api/preview/enable?sanity-preview-secret=${encodeURIComponent(secret)}` +
      `&sanity-preview-perspective=drafts&sanity-preview-pathname=${encodeURIComponent(path)}`,
    {headers: https, redirect: 'manual'},
  )
  expect(enable.status).toBe(303)
  expect(enable.headers.get('location')).toBe(`${path}?sanity-preview-perspective=drafts`)
  const token = new RegExp(`${previewCookieName}=(prv[\\w-]+)`).exec(
    enable.headers.get('set-cookie') ?? '',
  )?.[1]
  expect(token).toBeDefined()
  return {...https, cookie: `${previewCookieName}=${token}`}
}

const disablePreview = (through: Server, path: string, cookie: Record<string, string>) =>
  fetch(`${through.url}/api/preview/disable?redirect=${encodeURIComponent(path)}`, {
    headers: cookie,
    redirect: 'manual',
  })

describe('a site process forwards to its content process', () => {
  it('holds no lake and starts no HTTPS listener', () => {
    expect(site.lake).toBeUndefined()
    expect(site.httpsUrl).toBe(site.config.siteUrl)
  })

  it('content reads (Load More), with the answer the content process gave', async () => {
    const query = encodeURIComponent('count(*[_type == "post"])')
    const res = await fetch(`${site.url}/v2023-07-29/data/query/production?query=${query}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({result: seededPostCount()})
    // A visitor's POSTed query past the content process's cap for visitors is refused here.
    const large = await fetch(`${site.url}/v2023-07-29/data/query/production`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({query: 'length($a)', params: {a: 'x'.repeat(100 * 1024)}}),
    })
    expect(large.status).toBe(413)
    expect(await large.json()).toMatchObject({error: {type: 'requestEntityTooLarge'}})
    // Only the query path: the rest of the lake's API is not the site's.
    const doc = await fetch(`${site.url}/v2023-07-29/data/doc/production/anything`)
    expect(doc.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it('contact posts, stored by the content process; an oversized one is a 413 and stores nothing', async () => {
    const before = (await inbox()).length
    const res = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json'},
      body: JSON.stringify(message),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({success: true})
    expect((await inbox()).length).toBe(before + 1)

    const huge = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json'},
      body: JSON.stringify({...message, message: 'x'.repeat(1024 * 1024 + 1)}),
    })
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({error: {type: 'requestEntityTooLarge'}})
    expect((await inbox()).length).toBe(before + 1)
  })

  it('a contact form posted without script comes back to the site with its thank-you toast, once', async () => {
    const toast = '<p class="site-toast">Thank you! Your message was sent.</p>'
    const res = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {'content-type': 'application/x-www-form-urlencoded'},
      body: new URLSearchParams({...message, _next: '/contact'}).toString(),
      redirect: 'manual',
    })
    expect(res.status).toBe(303)
    const back = res.headers.get('location')!
    expect(back).toMatch(/^\/contact\?sent=[\w-]{22}$/)
    expect(await (await fetch(`${site.url}${back}`)).text()).toContain(toast)
    // A reload, or a made-up marker: the plain page.
    expect(await (await fetch(`${site.url}${back}`)).text()).not.toContain(toast)
    expect(await (await fetch(`${site.url}/contact?sent=${'x'.repeat(22)}`)).text()).not.toContain(
      toast,
    )
    // The content process's side refuses what cannot be a marker, and says so.
    const malformed = await fetch(`${content.url}/api/contact/sent?marker=%3Cscript%3E`, {
      method: 'POST',
    })
    expect(malformed.status).toBe(400)
  })

  it('the newsletter: the form on its pages, subscribe, confirm and unsubscribe links; an oversized post is a 413', async () => {
    const home = await (await fetch(`${site.url}/`)).text()
    expect(home).toContain('action="/api/subscribe"')
    const email = 'reader@example.com'
    const subscribed = await fetch(`${site.url}/api/subscribe`, {
      method: 'POST',
      body: new URLSearchParams({email}),
    })
    expect(subscribed.status).toBe(200)
    expect(await subscribed.text()).toContain('Check your inbox')
    const mail = await mailTo(sink, email)
    const confirm = onServer(
      linkIn(mail, '/api/subscribe/confirm'),
      content.config.siteUrl,
      site.url,
    )
    const confirmed = await fetch(confirm)
    expect(confirmed.status).toBe(200)
    const stored = () =>
      content.lake!.query<string | null>(
        '*[_type == "subscriber"][0].status',
        {},
        {authenticated: true, perspective: 'raw'},
      )
    expect(await stored()).toBe('active')
    const unsubscribe = onServer(linkIn(mail, '/api/unsubscribe'), content.config.siteUrl, site.url)
    expect((await fetch(unsubscribe)).status).toBe(200)
    const oneClick = await fetch(unsubscribe, {
      method: 'POST',
      body: new URLSearchParams({'List-Unsubscribe': 'One-Click'}),
    })
    expect(oneClick.status).toBe(200)
    expect(await stored()).not.toBe('active')

    const huge = await fetch(`${site.url}/api/subscribe`, {
      method: 'POST',
      body: new URLSearchParams({email: 'big@example.com', note: 'x'.repeat(8 * 1024)}),
    })
    expect(huge.status).toBe(413)
    expect(sink.mails.filter((m) => m.envelopeTo.includes('big@example.com'))).toEqual([])
  })

  it('two visitors behind the site are two clients to the content process: one at its subscribe cap does not refuse the other', async () => {
    // Security review 3, M1: the site passed its key (`203.0.113.0/24`, no IP) on, so the
    // content process counted every visitor as the site's own 127.0.0.1.
    const subscribe = (visitor: string, email: string) =>
      fetch(`${site.url}/api/subscribe`, {
        method: 'POST',
        headers: {'x-forwarded-for': visitor, accept: 'application/json'},
        body: new URLSearchParams({email}),
      })
    const a: number[] = []
    for (let i = 0; i < 6; i++)
      a.push((await subscribe('203.0.113.7', `a${i}@victims.test`)).status)
    expect(a).toEqual([200, 200, 200, 200, 200, 429])
    // A neighbour in A's /24 is A's network, as on a single process.
    expect((await subscribe('203.0.113.99', 'a-neighbour@victims.test')).status).toBe(429)
    const b = await subscribe('198.51.100.9', 'b@reader.test')
    expect(b.status).toBe(200)
    expect(await b.json()).toMatchObject({success: true})
    await mailTo(sink, 'b@reader.test')
  })

  it('preview: the Studio’s enable link, pages with drafts, the draft reads, and disable, all on the site process', async () => {
    const id = 'post-ghostwriting-without-losing-your-voice'
    const path = '/blog/ghostwriting-without-losing-your-voice'
    await writeDraft(id, 'A draft seen on a site')
    const cookie = await enablePreview(site, path)

    const preview = await fetch(`${site.url}${path}`, {headers: cookie})
    expect(await preview.text()).toContain('A draft seen on a site')
    expect(preview.headers.get('cache-control')).toBe('private, no-store')
    expect(await (await fetch(`${site.url}${path}`)).text()).not.toContain('A draft seen')
    const read = await fetch(
      `${site.url}/api/preview/content/v${apiVersion}/data/query/production?query=${encodeURIComponent(`*[_id == "${id}"][0].title`)}`,
      {headers: cookie},
    )
    expect(await read.json()).toMatchObject({result: 'A draft seen on a site'})

    const exit = await disablePreview(site, path, cookie)
    expect(exit.status).toBe(303)
    expect(exit.headers.get('set-cookie')).toMatch(/Max-Age=0/)
    // The ended session's cookie shows the public page, not an error.
    const after = await fetch(`${site.url}${path}`, {headers: cookie})
    expect(after.status).toBe(200)
    expect(await after.text()).not.toContain('A draft seen')
    // A made-up preview cookie is a visitor's page.
    const forged = await fetch(`${site.url}${path}`, {
      headers: {...https, cookie: `${previewCookieName}=prv${'x'.repeat(43)}`},
    })
    expect(await forged.text()).not.toContain('A draft seen')
  })

  it('preview ended through one site process shows no draft on another, from the moment the disable is answered', async () => {
    const other = await startTestServer({LAKE_URL: content.url, TRUST_PROXY: 'loopback'})
    try {
      const id = 'post-headings-are-promises'
      const path = '/blog/headings-are-promises'
      await writeDraft(id, 'A draft on two sites')
      const cookie = await enablePreview(site, path)
      // The other site renders the owner's drafts too: it has just seen the session live.
      const before = await fetch(`${other.url}${path}`, {headers: cookie})
      expect(await before.text()).toContain('A draft on two sites')

      expect((await disablePreview(site, path, cookie)).status).toBe(303)
      const after = await fetch(`${other.url}${path}`, {headers: cookie})
      expect(after.status).toBe(200)
      const page = await after.text()
      expect(page).not.toContain('A draft on two sites')
      expect(page).toContain('Headings Are Promises')
    } finally {
      await other.stop()
    }
  })
  it('images, with the content process’s status', async () => {
    const res = await fetch(`${site.url}/images/scriptorium/production/${'a'.repeat(40)}-1x1.png`)
    expect(res.status).toBe(404)
  })
})

describe('when the content process is away', () => {
  it('content reads get a JSON 503 with Retry-After, a native contact post a page to read', async () => {
    await content.stop()
    const query = await fetch(`${site.url}/v2023-07-29/data/query/production?query=1`)
    expect(query.status).toBe(503)
    expect(query.headers.get('retry-after')).toBe('5')
    expect(await query.json()).toMatchObject({error: {type: 'serviceUnavailable'}})
    const post = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {'content-type': 'application/x-www-form-urlencoded'},
      body: new URLSearchParams(message).toString(),
    })
    expect(post.status).toBe(503)
    expect(await post.text()).toContain('Your message was not sent')
    const subscribe = await fetch(`${site.url}/api/subscribe`, {
      method: 'POST',
      body: new URLSearchParams({email: 'late@example.com'}),
    })
    expect(subscribe.status).toBe(503)
    expect(subscribe.headers.get('retry-after')).toBe('5')
    expect(await subscribe.text()).toContain('Subscriptions cannot be handled right now')
  })
})

describe('forwarding is bounded', () => {
  it('past 8 forwards in flight from one client, the next is a 429 with Retry-After', async () => {
    const {upstream, held, app, waiting} = await forwarderHolding(8)
    const url = forwardedRead
    try {
      const over = await app.request(url)
      expect(over.status).toBe(429)
      expect(over.headers.get('retry-after')).toBe('1')
      expect(await over.json()).toMatchObject({error: {type: 'tooManyRequests'}})
      for (const release of held) release()
      expect((await Promise.all(waiting)).map((res) => res.status)).toEqual(Array(8).fill(200))
      // Slots come back once answered.
      const again = app.request(url)
      await upstream.holding(9)
      held[8]()
      expect((await again).status).toBe(200)
    } finally {
      await upstream.close()
    }
  })
})
