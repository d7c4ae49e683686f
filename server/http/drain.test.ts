import {readFileSync} from 'node:fs'
import {Agent, createServer, get, type IncomingMessage, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {startTestServer} from '../../test/support/server.ts'
import {drainable, drainTimeoutMs} from './drain.ts'

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections()
})

/** A plain HTTP server whose handler answers when `answer` is called (or never). */
async function holdingServer(): Promise<{port: number; server: Server; answer: () => void}> {
  let pending: (() => void) | undefined
  const arrived: Array<() => void> = []
  const server = createServer((_request, response) => {
    pending = () => response.end('done')
    for (const wake of arrived.splice(0)) wake()
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    server,
    answer: () => pending?.(),
  }
}

function request(port: number, agent: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get({port, host: '127.0.0.1', agent}, resolve).on('error', reject)
  })
}

describe('draining a listener', () => {
  it('lets the request in flight finish, says Connection: close, and closes at once after it', async () => {
    const {port, server, answer} = await holdingServer()
    const drain = drainable(server)
    const agent = new Agent({keepAlive: true})
    const response = request(port, agent)
    await new Promise<void>((resolve) => server.once('request', () => resolve()))
    const started = Date.now()
    const drained = drain.drain(started + 5_000)
    answer()
    const res = await response
    res.resume()
    expect(res.statusCode).toBe(200)
    expect(res.headers.connection).toBe('close')
    await drained
    // Not held open until the keep-alive timeout, nor to the deadline.
    expect(Date.now() - started).toBeLessThan(1_000)
    agent.destroy()
  })

  it('closes what still holds on at the deadline', async () => {
    const {port, server} = await holdingServer()
    const drain = drainable(server)
    const response = request(port, new Agent()).catch((error: Error & {code?: string}) => error)
    await new Promise<void>((resolve) => server.once('request', () => resolve()))
    const started = Date.now()
    await drain.drain(started + 300)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(await response).toMatchObject({code: 'ECONNRESET'})
  })
})

describe('the server’s graceful stop', () => {
  it('ends a Studio presence socket with 1001 and closes without waiting for the deadline', async () => {
    const server = await startTestServer({SEED: '0'})
    const ca = readFileSync(join(server.dataDir, 'localhost-cert.pem'))
    const ws = new WebSocket(
      `${server.httpsUrl.replace('https', 'wss')}/v2022-06-30/socket/production?tag=sanity.studio`,
      {ca, origin: server.httpsUrl},
    )
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    const started = Date.now()
    await server.stop()
    expect(await closed).toBe(1001)
    // Well under the drain's deadline, which is what a socket left open would cost (a busy
    // machine takes a second or two to stop a whole server).
    expect(Date.now() - started).toBeLessThan(drainTimeoutMs / 2)
  })
})
