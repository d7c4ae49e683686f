import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {nodeRequest} from '../http/testing/nodeRequest.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/** node:http, because fetch does not let a caller set Host, and the proxy sends the public one. */
const send = (url: string, headers: Record<string, string>, method = 'GET') =>
  nodeRequest(url, {method, headers})

// Behind a TLS proxy on the same machine (docs/deploy.md): HTTPS_PORT=off, TRUST_PROXY=loopback,
// SITE_URL the public https origin. Requests carry what Caddy sends: the public Host and
// X-Forwarded-Proto/-For. Every absolute URL handed back is on SITE_URL, never localhost.
describe('the Studio behind a TLS proxy', () => {
  let server: Server
  const site = 'https://writer.example'
  const proxied = {
    host: 'writer.example',
    'x-forwarded-proto': 'https',
    'x-forwarded-for': '203.0.113.9',
  }

  beforeAll(async () => {
    server = await startTestServer({
      SEED: '0',
      HTTPS_PORT: 'off',
      TRUST_PROXY: 'loopback',
      SITE_URL: site,
    })
  })
  afterAll(() => server.stop())

  it('opens no HTTPS listener and generates no certificate', () => {
    expect(server.httpsUrl).toBe(site)
    expect(existsSync(join(server.dataDir, 'localhost-cert.pem'))).toBe(false)
  })

  it('serves the Studio on the plain port when the proxy says https', async () => {
    const res = await fetch(`${server.url}/studio/structure`, {
      headers: proxied,
      redirect: 'manual',
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it('redirects plain-HTTP Studio requests to SITE_URL, keeping path and query', async () => {
    const res = await send(`${server.url}/studio/structure?x=1`, {host: 'writer.example'})
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${site}/studio/structure?x=1`)
  })

  it('names the login page on the public https origin, and takes SITE_URL as the Studio', async () => {
    const providers = await send(`${server.url}/v2021-06-07/auth/providers`, proxied)
    const {providers: list} = JSON.parse(providers.body) as {providers: Array<{url: string}>}
    expect(list.map((p) => p.url)).toEqual([`${site}/studio-login`])
    const login = await send(
      `${server.url}/studio-login?origin=${encodeURIComponent(`${site}/studio`)}`,
      proxied,
    )
    expect(login.status).toBe(200)
    const foreign = await send(
      `${server.url}/studio-login?origin=${encodeURIComponent('https://localhost:3443/studio')}`,
      proxied,
    )
    expect(foreign.status).toBe(400)
  })

  it('allows CORS from SITE_URL’s origin (the Studio SDK’s other host calls from there)', async () => {
    const res = await send(
      `${server.url}/v2021-06-07/users/me`,
      {...proxied, origin: site, 'access-control-request-method': 'GET'},
      'OPTIONS',
    )
    expect(res.status).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe(site)
  })
})
