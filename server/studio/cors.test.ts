import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {apiVersion} from '../../shared/constants.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/** CORS is one app-wide middleware: the lake's routes, registered first, get it too. */
describe('CORS on every lake API path, whatever the registration order', () => {
  let server: Server
  let studioOrigin: string
  const query = encodeURIComponent('count(*[_type == "post"])')

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    studioOrigin = new URL(server.httpsUrl).origin
  })
  afterAll(() => server.stop())

  const get = (path: string, origin: string) => fetch(`${server.url}${path}`, {headers: {origin}})

  it('a cross-origin /data/query from the Studio gets Access-Control-Allow-Origin', async () => {
    const res = await get(`/v${apiVersion}/data/query/production?query=${query}`, studioOrigin)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({result: 0})
    expect(res.headers.get('access-control-allow-origin')).toBe(studioOrigin)
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
    expect(res.headers.get('vary')).toMatch(/Origin/)
  })

  it('so do its errors, which the Studio must be able to read', async () => {
    const res = await get(`/v${apiVersion}/data/query/production?query=*[`, studioOrigin)
    expect(res.status).toBe(400)
    expect(res.headers.get('access-control-allow-origin')).toBe(studioOrigin)
  })

  it('a disallowed origin gets no CORS headers on the same query', async () => {
    const res = await get(
      `/v${apiVersion}/data/query/production?query=${query}`,
      'https://evil.example',
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('preflights of /data/mutate: 204 for the Studio, a JSON 403 for anyone else', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/v${apiVersion}/data/mutate/production`, {
        method: 'OPTIONS',
        headers: {origin, 'access-control-request-method': 'POST'},
      })
    const ok = await preflight(studioOrigin)
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-origin')).toBe(studioOrigin)
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST')
    const foreign = await preflight('https://evil.example')
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    expect(await foreign.json()).toMatchObject({error: {type: 'httpForbidden'}})
  })
})
