import {Hono} from 'hono'
import {describe, expect, it} from 'vitest'
import {RateLimiter} from '../util/rateLimit.ts'
import {clientMiddleware} from '../http/clientAddress.ts'
import {errorResponse} from '../http/errorResponse.ts'
import {guardInbox, inboxBodyLimit} from './inboxGuard.ts'

/** The inbox's guard in front of Fedify: blocked hosts dropped, rates per host, bodies capped. */
function guardedApp(limit = 3) {
  const app = new Hono()
  app.use(clientMiddleware('none'))
  app.onError(errorResponse)
  const seen: string[] = []
  app.post('/inbox', async (c) => {
    const request = await guardInbox(c, c.req.raw, {
      limiter: new RateLimiter({limit, windowMs: 60_000}),
      isBlockedHost: (host) => host === 'blocked.example',
    })
    if (!request) return c.body(null, 202)
    seen.push(await request.text())
    return c.body(null, 201)
  })
  return {app, seen}
}

const signed = (host: string, body = '{}') =>
  new Request('http://localhost/inbox', {
    method: 'POST',
    headers: {
      signature: `keyId="https://${host}/users/a#main-key",algorithm="rsa-sha256",headers="(request-target)",signature="x"`,
    },
    body,
  })

describe('the inbox guard', () => {
  it('drops a blocked instance before reading anything (202, nothing passed on)', async () => {
    const {app, seen} = guardedApp()
    const res = await app.request(signed('blocked.example'))
    expect(res.status).toBe(202)
    expect(seen).toEqual([])
  })

  it('refuses a body over the cap with 413', async () => {
    const {app, seen} = guardedApp()
    const res = await app.request(signed('big.example', 'x'.repeat(inboxBodyLimit + 1)))
    expect(res.status).toBe(413)
    expect(seen).toEqual([])
  })

  it('limits activities per remote host, with Retry-After, and not other hosts', async () => {
    const limiter = new RateLimiter({limit: 2, windowMs: 60_000})
    const app = new Hono()
    app.use(clientMiddleware('none'))
    app.onError(errorResponse)
    app.post('/inbox', async (c) => {
      await guardInbox(c, c.req.raw, {limiter, isBlockedHost: () => false})
      return c.body(null, 202)
    })
    expect((await app.request(signed('busy.example'))).status).toBe(202)
    expect((await app.request(signed('busy.example'))).status).toBe(202)
    const refused = await app.request(signed('busy.example'))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await app.request(signed('quiet.example'))).status).toBe(202)
  })
})
