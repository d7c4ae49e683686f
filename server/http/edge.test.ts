import {mkdtempSync, rmSync} from 'node:fs'
import {request as httpRequest} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {readConfig} from '../env.ts'
import {startServer, type RunningServer} from '../start.ts'
import {edgeLimits} from './limits.ts'
import {closedBy, openPartial, rawExchange} from './testing/raw.ts'

// The real server with the production limits, except a headers timeout short enough to wait for.
const headersTimeoutMs = 1_000
const maxConnectionsPerClient = 30
let server: RunningServer
let dataDir: string
let port: number

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-edge-'))
  server = await startServer(readConfig({PORT: '0', HTTPS_PORT: '0', DATA_DIR: dataDir}), {
    ...edgeLimits,
    headersTimeoutMs,
    checkIntervalMs: 100,
    maxConnectionsPerClient,
  })
  port = server.config.port
})
afterAll(async () => {
  await server.close()
  rmSync(dataDir, {recursive: true, force: true})
})

const get = (target: string, headers = 'Host: localhost\r\n') =>
  rawExchange(port, `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`)

const upgrade = (target: string) =>
  'Host: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n${target}`

async function stillServes(): Promise<void> {
  const res = await fetch(`${server.url}/v2023-07-29/data/query/production?query=count(*)`)
  expect(res.status).toBe(200)
}

describe('malformed input on the listeners', () => {
  it.each([
    ['a bad escape on a site page', '/%'],
    ['a truncated UTF-8 escape under /blog', '/blog/%E0%A4%A'],
    ['an escape that decodes to an escape', '/%25'],
    ['a double-decoded document id', '/v2023-07-29/data/doc/production/%25'],
    ['a bare % in a document id', '/v2023-07-29/data/doc/production/%'],
    ['a bad escape in a query', '/v2023-07-29/data/query/production?query=%'],
    ['a bad escape in a history id', '/v2023-07-29/data/history/production/documents/%25'],
  ])('%s (%s) is a 4xx', async (_, target) => {
    const answer = await get(target)
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(answer.status).toBeLessThan(500)
  })

  it("a malformed post address is the site's own 'Post not found.' page, not JSON", async () => {
    const answer = await get('/blog/%E0%A4%A')
    expect(answer.status).toBe(404)
    expect(answer.text).toMatch(/content-type: text\/html/i)
    expect(answer.text).toContain('Post not found.')
  })

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 400],
    [
      'a header line without a colon',
      'GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n',
      400,
    ],
    [
      'a control character in a header',
      'GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\u0001b\r\n\r\n',
      400,
    ],
    ['no Host header', 'GET / HTTP/1.1\r\n\r\n', 400],
    [
      'a backslash in the path',
      'GET /\\evil.example HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      400,
    ],
    [
      'a head over the size limit',
      `GET / HTTP/1.1\r\nHost: localhost\r\nX-A: ${'a'.repeat(40_000)}\r\n\r\n`,
      431,
    ],
    [
      'an absolute target naming a foreign host',
      'GET http://evil.example/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      421,
    ],
  ])('%s: a 4xx, and the connection is closed', async (_, request, status) => {
    const answer = await rawExchange(port, request)
    expect(answer.status).toBe(status)
    expect(answer.closed).toBe(true)
  })

  it('a WebSocket upgrade with a bad escape gets a 4xx and the process keeps serving', async () => {
    const answer = await rawExchange(port, `GET /v2022-06-30/socket/%25 HTTP/1.1\r\n${upgrade('')}`)
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(answer.status).toBeLessThan(500)
    const bare = await rawExchange(port, `GET /v2022-06-30/socket/% HTTP/1.1\r\n${upgrade('')}`)
    expect(bare.status).toBeGreaterThanOrEqual(400)
    expect(bare.status).toBeLessThan(500)
    await stillServes()
  })

  it('an upgrade to an address without a socket is a 404', async () => {
    const answer = await rawExchange(port, `GET /nothing-here HTTP/1.1\r\n${upgrade('')}`)
    expect(answer.status).toBe(404)
    await stillServes()
  })
})

describe('slow and long requests', () => {
  it('closes slowloris connections after the headers timeout while honest requests answer', async () => {
    const started = Date.now()
    const slow = await Promise.all(
      Array.from({length: 20}, () =>
        openPartial(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nX-A: '),
      ),
    )
    const closed = slow.map((socket) => closedBy(socket))
    const honest = Date.now()
    await stillServes()
    expect(Date.now() - honest).toBeLessThan(headersTimeoutMs)
    const answers = await Promise.all(closed)
    for (const text of answers) expect(text).toMatch(/^HTTP\/1\.1 408/)
    expect(Date.now() - started).toBeLessThan(headersTimeoutMs + 2_000)
  })

  it('answers a listen URL of 14,800 characters (the spec’s longest GET)', async () => {
    const base = `/v2023-07-29/data/listen/production?query=${encodeURIComponent('*[_id == "')}`
    const end = encodeURIComponent('"]')
    const target = `${base}${'a'.repeat(14_800 - base.length - end.length)}${end}`
    expect(target.length).toBe(14_800)
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}${target}`,
        {headers: {accept: 'text/event-stream'}},
        (res) => {
          resolve(res.statusCode)
          res.destroy()
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(200)
  })

  it('one client address cannot hold more than its share of connections', async () => {
    const partial = 'GET / HTTP/1.1\r\nHost: localhost\r\nX-A: '
    const held = await Promise.all(
      Array.from({length: maxConnectionsPerClient}, () => openPartial(port, partial, '127.0.0.2')),
    )
    const over = await openPartial(port, partial, '127.0.0.2')
    expect(await closedBy(over)).toBe('')
    await stillServes()
    for (const socket of held) socket.destroy()
  })
})
