import {readFileSync} from 'node:fs'
import {connect} from 'node:http2'
import {join} from 'node:path'
import sanityPackage from 'sanity/package.json' with {type: 'json'}
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

describe('the Studio feature', () => {
  let server: Server

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
  })
  afterAll(() => server.stop())

  it('redirects /studio on the plain listener to the HTTPS one, keeping path and query', async () => {
    const res = await fetch(`${server.url}/studio/structure/posts?x=1`, {redirect: 'manual'})
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`${server.httpsUrl}/studio/structure/posts?x=1`)
  })

  it('speaks HTTP/2 on the HTTPS listener with its generated certificate', async () => {
    const ca = readFileSync(join(server.dataDir, 'localhost-cert.pem'))
    const session = connect(server.httpsUrl, {ca})
    const status = await new Promise<number>((resolve, reject) => {
      const request = session.request({':path': '/v2025-03-01/ping'})
      request.on('response', (headers) => resolve(Number(headers[':status'])))
      request.on('error', reject)
      request.end()
    })
    expect(session.alpnProtocol).toBe('h2')
    session.destroy()
    expect(status).toBe(200)
  })

  it('answers CORS preflights for the Studio origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/v2021-06-07/users/me`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization,x-sanity-app',
        },
      })
    const sdkOrigin = server.httpsUrl.replace('localhost', 'scriptorium.localhost')
    const ok = await preflight(sdkOrigin)
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-origin')).toBe(sdkOrigin)
    expect(ok.headers.get('access-control-allow-headers')).toBe('authorization,x-sanity-app')
    const foreign = await preflight('https://evil.example')
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    expect(await foreign.json()).toMatchObject({error: {type: 'httpForbidden'}})
    const get = await fetch(`${server.url}/v2021-06-07/users/me`, {headers: {origin: sdkOrigin}})
    expect(get.headers.get('access-control-allow-origin')).toBe(sdkOrigin)
  })

  it("answers the local Studio's version check with the installed sanity, on its own origin", async () => {
    // What the Studio asks (studio/vite.ownOrigin.ts points its module CDN here): the newest
    // `sanity` for a range, and the auto-updating form by app id.
    for (const path of [
      '/studio/module-cdn/v1/modules/sanity/latest/%5E6.16.0/t1795385786',
      '/studio/module-cdn/v1/modules/by-app/app-1/t1795385786/%5E6.16.0/sanity',
    ]) {
      const answer = await fetch(`${server.url}${path}`)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('content-type')).toContain('application/json')
      await expect(answer.json()).resolves.toEqual({
        latest: sanityPackage.version,
        packageVersion: sanityPackage.version,
      })
    }
  })
})
