import {mkdtempSync, rmSync} from 'node:fs'
import {connect, constants, type ClientHttp2Session} from 'node:http2'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {readConfig} from '../env.ts'
import {startServer, type RunningServer} from '../start.ts'
import {edgeLimits} from './limits.ts'

// HTTP/2 abuse on the HTTPS listener, with node:http2 as the attacker: the production limits,
// except a body grace short enough to wait for.
const bodyGraceMs = 500
let server: RunningServer
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-h2-'))
  server = await startServer(readConfig({PORT: '0', HTTPS_PORT: '0', DATA_DIR: dataDir}), {
    ...edgeLimits,
    bodyGraceMs,
    minBodyBytesPerSecond: 1024,
    checkIntervalMs: 100,
  })
  // A server that has been up has its renderer loaded and its query workers running.
  expect((await fetch(`${server.url}/`)).status).toBe(200)
  expect((await fetch(`${server.url}/v2023-07-29/data/query/production?query=1`)).status).toBe(200)
})
afterAll(async () => {
  await server.close()
  rmSync(dataDir, {recursive: true, force: true})
})

async function openSession(): Promise<ClientHttp2Session> {
  const session = connect(server.httpsUrl, {rejectUnauthorized: false})
  session.on('error', () => undefined)
  await new Promise((resolve) => session.once('connect', resolve))
  return session
}

/** Whether the server ends `session` (GOAWAY or a closed socket) within `ms`. */
function endedBy(session: ClientHttp2Session, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    const ended = () => {
      clearTimeout(timer)
      resolve(true)
    }
    session.once('goaway', ended)
    session.once('close', ended)
  })
}

const over = (session: ClientHttp2Session) => session.closed || session.destroyed

/** An honest reader on a new session: its query is answered, within the usual bound. */
async function honestAnswer(): Promise<{status: unknown; ms: number}> {
  const started = performance.now()
  const session = await openSession()
  const status = await new Promise((resolve, reject) => {
    const stream = session.request({':path': '/v2023-07-29/data/query/production?query=count(*)'})
    stream.on('response', (headers) => resolve(headers[':status']))
    stream.on('error', reject)
    stream.resume()
  })
  session.close()
  return {status, ms: performance.now() - started}
}

describe('HTTP/2 abuse', () => {
  it('closes a session that opens and cancels streams in a loop (rapid reset)', async () => {
    const session = await openSession()
    const logged = vi.spyOn(console, 'warn')
    const closedByServer = vi
      .waitFor(
        () => {
          const lines = logged.mock.calls.map((call) => String(call[0]))
          if (!lines.some((line) => /closed: over \d+ reset frames/.test(line))) throw new Error()
        },
        {timeout: 15_000, interval: 50},
      )
      .then(
        () => true,
        () => false,
      )
    // A bound on the test's wait, not a speed target: under a loaded full suite 5 s was too short.
    const ended = endedBy(session, 15_000)
    for (let i = 0; i < 1_000 && !over(session); i++) {
      // A page the server must render (no cache holds it), cancelled before its answer.
      const stream = session.request({':path': `/no-such-page-${i}`})
      stream.on('error', () => undefined)
      stream.close(constants.NGHTTP2_CANCEL)
      // A breath every 25 streams: without it node:http2's own client wedges (it queues the
      // streams behind the stream cap and stops reading, so it never sees the GOAWAY).
      if (i % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    }
    // The server's own word that it closed the session counts too: on a busy machine
    // node:http2's client can wedge behind the stream cap and never read the GOAWAY.
    expect(await Promise.race([ended, closedByServer])).toBe(true)
    logged.mockRestore()
    session.destroy()
    const honest = await honestAnswer()
    expect(honest.status).toBe(200)
    expect(honest.ms).toBeLessThan(1_000)
  })

  it.each([
    [
      'SETTINGS',
      (s: ClientHttp2Session, done: () => void) => s.settings({enablePush: false}, done),
    ],
    ['PING', (s: ClientHttp2Session, done: () => void) => s.ping(done)],
  ])('closes a session that floods %s frames', async (_, send) => {
    const session = await openSession()
    // A bound on the test's wait, not a speed target: under a loaded full suite 5 s was too short.
    const ended = endedBy(session, 15_000)
    for (let i = 0; i < 1_000 && !over(session); i++) {
      // Each waits for its acknowledgement (node:http2 caps the unacknowledged ones).
      await Promise.race([new Promise<void>((resolve) => send(session, resolve)), ended])
    }
    expect(await ended).toBe(true)
    session.destroy()
    const honest = await honestAnswer()
    expect(honest.status).toBe(200)
    expect(honest.ms).toBeLessThan(1_000)
  })

  it('closes a session whose streams are opened and never finished (slowloris over h2)', async () => {
    const session = await openSession()
    const ended = endedBy(session, bodyGraceMs + 3_000)
    for (let i = 0; i < 50; i++) {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/api/contact',
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '60000',
      })
      stream.on('error', () => undefined)
    }
    expect(await ended).toBe(true)
    session.destroy()
    const honest = await honestAnswer()
    expect(honest.status).toBe(200)
    expect(honest.ms).toBeLessThan(1_000)
  })

  it('leaves an honest session that resets a few streams and pings alone', async () => {
    const session = await openSession()
    for (let i = 0; i < 10; i++) {
      const stream = session.request({':path': '/healthz'})
      stream.on('error', () => undefined)
      stream.close(constants.NGHTTP2_CANCEL)
      await new Promise<void>((resolve) => session.ping(() => resolve()))
    }
    const status = await new Promise((resolve, reject) => {
      const stream = session.request({':path': '/healthz'})
      stream.on('response', (headers) => resolve(headers[':status']))
      stream.on('error', reject)
      stream.resume()
    })
    expect(status).toBe(200)
    expect(over(session)).toBe(false)
    session.close()
  })
})
