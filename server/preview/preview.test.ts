import {createHash} from 'node:crypto'
import {request as httpsRequest} from 'node:https'
import {createClient} from '@sanity/client'
import {createPreviewSecret} from '@sanity/preview-url-secret/create-secret'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {apiVersion, defaultDataset, localProjectId} from '../../shared/constants.ts'
import {importDocuments, previewSecretType} from '../lake/index.ts'
import {previewCookieName} from '../http/previewCookie.ts'
import {nodeRequest, type NodeAnswer} from '../http/testing/nodeRequest.ts'

// Preview mode end to end over the real server: the Studio's own secret writer, the enable and
// disable routes, the cookie, the rendered drafts and the content proxy.

/** A GET over the server's HTTPS listener (self-signed certificate), as a browser would send. */
const httpsGet = (url: string, headers: Record<string, string> = {}) => nodeRequest(url, {headers})

const cookieOf = (answer: NodeAnswer) => {
  const header = answer.headers['set-cookie']
  return (Array.isArray(header) ? header : [header ?? '']).join('\n')
}
const tokenIn = (setCookie: string) =>
  new RegExp(`${previewCookieName}=(prv[\\w-]+)`).exec(setCookie)?.[1]

/** The inline scripts a page would run (data scripts excluded), and whether its CSP holds each. */
const runnableInlineScripts = (html: string, csp: string) =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !/type="application\/(ld\+)?json"/.test(attrs))
    .map(([, attrs, source]) => ({
      attrs: attrs.trim(),
      allowed: csp.includes(`'sha256-${createHash('sha256').update(source).digest('base64')}'`),
    }))

describe('preview mode', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let studioSession: string
  const enableUrl = (secret: string, path = '/blog/first') =>
    `${server.httpsUrl}/api/preview/enable?sanity-preview-secret=${encodeURIComponent(secret)}` +
    `&sanity-preview-perspective=drafts&sanity-preview-pathname=${encodeURIComponent(path)}`
  /** What the Presentation tool does when it opens: write a secret with the Studio's session. */
  const newSecret = async (session = studioSession) => {
    const studio = createClient({
      projectId: localProjectId,
      dataset: defaultDataset,
      apiVersion: '2025-02-19',
      apiHost: server.url,
      useProjectHostname: false,
      useCdn: false,
      token: session,
    })
    return (await createPreviewSecret(studio, 'test', '/studio', 'p-owner')).secret
  }
  const enable = async (secret: string, headers: Record<string, string> = {}) => {
    const answer = await httpsGet(enableUrl(secret), headers)
    return {answer, token: tokenIn(cookieOf(answer))}
  }
  const page = (path: string, token?: string) =>
    httpsGet(`${server.httpsUrl}${path}`, token ? {cookie: `${previewCookieName}=${token}`} : {})

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    const owner = server.lake!
    await owner.mutate([
      {
        create: {
          _id: 'first',
          _type: 'post',
          title: 'Published title',
          slug: {_type: 'slug', current: 'first'},
          date: '2026-01-01',
          category: 'Fiction',
        },
      },
      {
        create: {
          _id: 'drafts.first',
          _type: 'post',
          title: 'Draft title',
          slug: {_type: 'slug', current: 'first'},
          date: '2026-01-01',
          category: 'Fiction',
        },
      },
      {
        create: {
          _id: 'drafts.unborn',
          _type: 'post',
          title: 'Never published',
          slug: {_type: 'slug', current: 'unborn'},
          date: '2026-02-01',
          category: 'Fiction',
        },
      },
    ])
    studioSession = owner.createSession()
  })
  afterAll(() => server.stop())

  it('a valid secret sets a Secure, HttpOnly, SameSite=Lax cookie and redirects to the page', async () => {
    const {answer, token} = await enable(await newSecret())
    expect(answer.status).toBe(303)
    expect(answer.headers.location).toBe('/blog/first?sanity-preview-perspective=drafts')
    expect(answer.headers['referrer-policy']).toBe('no-referrer')
    const cookie = cookieOf(answer)
    expect(cookie).toMatch(new RegExp(`^${previewCookieName}=prv[\\w-]{43}; `))
    for (const flag of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax'])
      expect(cookie).toContain(flag)
    expect(token).toBeDefined()
  })

  it('with the cookie, pages show drafts, uncached and unindexed; without it, the published post', async () => {
    const {token} = await enable(await newSecret())
    const preview = await page('/blog/first', token)
    expect(preview.status).toBe(200)
    expect(preview.body).toContain('Draft title')
    expect(preview.headers['cache-control']).toBe('private, no-store')
    expect(preview.headers['x-robots-tag']).toBe('noindex')
    expect((await page('/blog/unborn', token)).body).toContain('Never published')

    const visitor = await page('/blog/first')
    expect(visitor.body).toContain('Published title')
    expect(visitor.body).not.toContain('Draft title')
    expect((await page('/blog/unborn')).status).toBe(404)
    // The preview did not leave its drafts in the render cache.
    expect((await page('/blog/first')).body).not.toContain('Draft title')
  })

  it('the cookie counts over HTTPS only', async () => {
    const {token} = await enable(await newSecret())
    const plain = await fetch(`${server.url}/blog/first`, {
      headers: {cookie: `${previewCookieName}=${token}`},
    })
    expect(await plain.text()).toContain('Published title')
    const insecureEnable = await fetch(
      enableUrl(await newSecret()).replace(server.httpsUrl, server.url),
      {redirect: 'manual'},
    )
    expect(insecureEnable.status).toBe(403)
    expect(insecureEnable.headers.get('set-cookie')).toBeNull()
  })

  it('refuses a wrong, an expired and a replayed secret', async () => {
    const wrong = await enable('not-the-secret')
    expect(wrong.answer.status).toBe(401)
    expect(wrong.token).toBeUndefined()

    // A secret written two hours ago (SECRET_TTL is one hour), e.g. from a restored export.
    const lake = server.lake!
    const old = new Date(Date.now() - 2 * 3_600_000).toISOString()
    importDocuments(lake, [
      {
        _id: 'drafts.old-secret',
        _type: previewSecretType,
        secret: 'old-secret-value',
        studioUrl: '/studio',
        _createdAt: old,
        _updatedAt: old,
        _rev: 'r1',
      },
    ])
    lake.previewSessions().noteSecretAuthor('drafts.old-secret', lake.verifyToken(studioSession)!)
    const expired = await enable('old-secret-value')
    expect(expired.answer.status).toBe(401)
    expect(expired.token).toBeUndefined()

    const secret = await newSecret()
    const first = await enable(secret)
    expect(first.answer.status).toBe(303)
    // Another browser with the same link: refused.
    const replay = await enable(secret)
    expect(replay.answer.status).toBe(401)
    expect(replay.answer.body).toMatch(/already been used/)
    // The browser it opened a preview for (the Studio reloading its frame): let through.
    const reload = await enable(secret, {cookie: `${previewCookieName}=${first.token}`})
    expect(reload.answer.status).toBe(303)
  })

  it('throttles bad secrets per client: after 10, a 429 with Retry-After without a check', async () => {
    // Another client address than the tests above (TRUST_PROXY off: the peer is the client).
    const other = await startTestServer({SEED: '0'})
    try {
      const url = (secret: string) =>
        `${other.httpsUrl}/api/preview/enable?sanity-preview-secret=${secret}`
      for (let i = 0; i < 10; i++) expect((await httpsGet(url(`wrong-${i}`))).status).toBe(401)
      const throttled = await httpsGet(url('wrong-10'))
      expect(throttled.status).toBe(429)
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
    } finally {
      await other.stop()
    }
  })

  it('streams live events with drafts to the cookie, and to nobody else', async () => {
    const {token} = await enable(await newSecret())
    const path = `/api/preview/content/v${apiVersion}/data/live/events/production`
    expect((await page(path)).status).toBe(401)
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(
        `${server.httpsUrl}${path}`,
        {rejectUnauthorized: false, headers: {cookie: `${previewCookieName}=${token}`}},
        (res) => {
          expect(res.statusCode).toBe(200)
          expect(res.headers['content-type']).toMatch(/text\/event-stream/)
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => {
            text += chunk
            // After the welcome, a draft commit: the preview page's cue to refresh.
            if (text.includes('event: welcome') && !text.includes('event: message'))
              void server.lake!.mutate([
                {patch: {id: 'drafts.unborn', set: {excerpt: 'Edited while previewed.'}}},
              ])
            if (text.includes('event: message')) {
              req.destroy()
              resolve(text)
            }
          })
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(received).toMatch(/data: \{"tags":\[[^\]]*"s1:drafts"/)
  })

  it('disable ends the preview and clears the cookie; a forged cookie shows nothing', async () => {
    const {token} = await enable(await newSecret())
    const exit = await httpsGet(`${server.httpsUrl}/api/preview/disable?redirect=%2Fblog%2Ffirst`, {
      cookie: `${previewCookieName}=${token}`,
    })
    expect(exit.status).toBe(303)
    expect(exit.headers.location).toBe('/blog/first')
    expect(cookieOf(exit)).toMatch(/Max-Age=0/)
    expect((await page('/blog/first', token)).body).toContain('Published title')
    const offSite = await httpsGet(
      `${server.httpsUrl}/api/preview/disable?redirect=%2F%2Fevil.example`,
    )
    expect(offSite.headers.location).toBe('/')
    const forged = `prv${'A'.repeat(43)}`
    expect((await page('/blog/first', forged)).body).toContain('Published title')
  })

  it('ends when the Studio session that opened it logs out', async () => {
    const session = server.lake!.createSession()
    const {token} = await enable(await newSecret(session))
    expect((await page('/blog/first', token)).body).toContain('Draft title')
    server.lake!.revokeSession(session)
    expect((await page('/blog/first', token)).body).toContain('Published title')
  })

  it('Home in preview runs no inline script its CSP does not hold, however long its sections', async () => {
    // Past React's 12,800-byte progressive chunk, a prerendered page used to move a Suspense
    // section out of place behind inline $RC/$RB/$RV/$RT scripts: blocked by the CSP, the section
    // stayed on "Loading ..." and React logged error #419. Preview's edit attributes push Home past
    // it first; these long titles push the public Home past it too.
    const long = (n: number) => `A long title ${n}, ${'with many words in it '.repeat(60)}`
    const {token} = await enable(await newSecret())
    await server.lake!.mutate(
      [1, 2, 3].map((n) => ({
        create: {
          _id: `long-${n}`,
          _type: 'post',
          title: long(n),
          slug: {_type: 'slug', current: `long-${n}`},
          date: `2030-01-0${n}`,
          category: 'General',
        },
      })),
    )
    const preview = await page('/', token)
    const visitor = await page('/')
    for (const [who, answer] of [
      ['preview', preview],
      ['visitor', visitor],
    ] as const) {
      expect(answer.status, who).toBe(200)
      expect(answer.body, who).toContain('A long title 3')
      expect(answer.body, who).toContain('What clients say')
      const csp = String(answer.headers['content-security-policy'])
      expect(runnableInlineScripts(answer.body, csp), who).toEqual([
        {attrs: '', allowed: true},
        {attrs: 'type="speculationrules"', allowed: true},
      ])
    }
    // The same policy as the public page's: preview allows nothing more.
    expect(preview.headers['content-security-policy']).toBe(
      visitor.headers['content-security-policy'],
    )
  })

  it('the content proxy reads drafts for the cookie only, and writes nothing', async () => {
    const {token} = await enable(await newSecret())
    const query = encodeURIComponent('*[_id == "first"][0].title')
    const path = `/api/preview/content/v${apiVersion}/data/query/production?query=${query}`
    const withCookie = await page(path, token)
    expect(withCookie.status).toBe(200)
    expect(JSON.parse(withCookie.body)).toMatchObject({result: 'Draft title'})
    expect(withCookie.headers['cache-control']).toBe('private, no-store')
    const without = await page(path)
    expect(without.status).toBe(401)
    expect(JSON.parse(without.body)).toMatchObject({error: {type: 'httpUnauthorized'}})

    // Only queries pass: an escaped slash in a path part reaches no other route (review 2, #3).
    for (const sneaky of [
      `/api/preview/content/v1%2Fusers%2Fme%23/data/query/production?query=${query}`,
      `/api/preview/content/v${apiVersion}/data/query/production%2F..%2F..%2Fusers%2Fme?query=${query}`,
      `/api/preview/content/v1%2Fusers%2Fme%23/data/live/events/production`,
    ]) {
      const answer = await page(sneaky, token)
      expect(answer.status, sneaky).toBe(404)
      expect(answer.body, sneaky).not.toContain('"id"')
      expect(JSON.parse(answer.body), sneaky).toMatchObject({error: {type: 'httpNotFound'}})
    }

    // A POSTed query over 1 MiB is refused while it streams.
    const huge = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {cookie: `${previewCookieName}=${token}`, 'x-forwarded-proto': 'https'},
      body: JSON.stringify({query: 'count(*)', params: {pad: 'x'.repeat(1100 * 1024)}}),
    })
    // Plain HTTP without TRUST_PROXY: the forwarded proto does not count, so not in preview.
    expect(huge.status).toBe(401)
    const tooLarge = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        `${server.httpsUrl}${path}`,
        {
          method: 'POST',
          rejectUnauthorized: false,
          headers: {cookie: `${previewCookieName}=${token}`, 'content-type': 'application/json'},
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end(JSON.stringify({query: 'count(*)', params: {pad: 'x'.repeat(1100 * 1024)}}))
    })
    expect(tooLarge).toBe(413)

    // The preview cookie writes nothing, through the lake or through the proxy.
    const cookie = `${previewCookieName}=${token}`
    const body = JSON.stringify({mutations: [{create: {_type: 'post', title: 'sneaky'}}]})
    for (const target of [
      `/v${apiVersion}/data/mutate/production`,
      `/api/preview/content/v${apiVersion}/data/mutate/production`,
    ]) {
      const res = await fetch(`${server.url}${target}`, {
        method: 'POST',
        headers: {cookie, 'content-type': 'application/json', 'x-forwarded-proto': 'https'},
        body,
      })
      expect(res.status, target).toBeGreaterThanOrEqual(400)
      expect(res.status, target).toBeLessThan(500)
    }
    expect(await server.lake!.query('count(*[title == "sneaky"])', {}, {authenticated: true})).toBe(
      0,
    )
  })
})
