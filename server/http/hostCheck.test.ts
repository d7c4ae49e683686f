import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {readConfig} from '../env.ts'
import {hostName, hostPolicy} from './hostCheck.ts'
import {rawExchange} from './testing/raw.ts'

describe('hostPolicy', () => {
  const allowed = hostPolicy(
    readConfig({
      SITE_URL: 'https://writer.example',
      ALLOWED_HOSTS: 'www.writer.example, Preview.Example:8080',
    }),
  )

  it.each([
    'writer.example',
    'WRITER.example:443',
    'writer.example.',
    'www.writer.example',
    'preview.example',
    'localhost:3000',
    'scriptorium.localhost:3443',
    '127.0.0.1:3000',
    '127.8.9.10',
    '[::1]:3443',
  ])('accepts %s', (host) => expect(allowed(host)).toBe(true))

  it.each([
    'evil.example',
    'writer.example.evil.example',
    'localhost.evil.example',
    '192.168.1.5',
    '[::2]',
    '',
    undefined,
  ])('refuses %s', (host) => expect(allowed(host)).toBe(false))

  it('reduces a Host to its name', () => {
    expect(hostName('[::1]:80')).toBe('::1')
    expect(hostName('Example.COM.:8080')).toBe('example.com')
  })
})

describe('the Host check on the running server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer({SEED: '0', ALLOWED_HOSTS: 'allowed.example'})
  })
  afterAll(() => server.stop())

  const get = (path: string, host: string, extra = '') =>
    rawExchange(
      server.config.port,
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`,
    )

  it('answers a foreign Host on the API with a Sanity-shaped 421', async () => {
    const answer = await get('/v2023-07-29/data/query/production?query=1', 'evil.example')
    expect(answer.status).toBe(421)
    const body = answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)
    expect(JSON.parse(body)).toMatchObject({error: {type: 'misdirectedRequest'}})
  })

  it('answers a foreign Host on a page with a short text 421', async () => {
    const answer = await get('/', 'evil.example:3000')
    expect(answer.status).toBe(421)
    expect(answer.text).toMatch(/content-type: text\/plain/i)
    expect(answer.text).toContain('ALLOWED_HOSTS')
  })

  it('answers SITE_URL’s host, loopback, *.localhost and ALLOWED_HOSTS', async () => {
    for (const host of [
      new URL(server.config.siteUrl).host,
      '127.0.0.1',
      '[::1]:1',
      'scriptorium.localhost',
      'allowed.example:8443',
    ]) {
      expect((await get('/v2023-07-29/data/query/production?query=1', host)).status).toBe(200)
    }
  })

  it('exempts the health endpoints', async () => {
    for (const path of ['/healthz', '/readyz']) {
      expect((await get(path, 'evil.example')).status).not.toBe(421)
    }
  })

  it('refuses a WebSocket upgrade with a foreign Host', async () => {
    const answer = await get(
      '/v2022-06-30/socket/production',
      'evil.example',
      'Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n',
    )
    expect(answer.status).toBe(421)
  })
})
