import {readFileSync} from 'node:fs'
import {connect as connectTcp} from 'node:net'
import {join} from 'node:path'
import {connect as connectTls} from 'node:tls'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {startTestServer} from '../../../test/support/server.ts'
import {maxSocketsPerClient} from './socketGuard.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>
type Message = {
  id?: string
  result?: unknown
  error?: {code: number}
  method?: string
  params?: {subscription: string; result: Record<string, unknown>}
}

/** A bifur client over wss with the server's own certificate as the trust anchor. */
class Client {
  readonly ws: WebSocket
  readonly messages: Message[] = []
  private waiters: Array<() => void> = []
  private next = 0

  constructor(server: Server, origin: string, localAddress?: string) {
    const ca = readFileSync(join(server.dataDir, 'localhost-cert.pem'))
    this.ws = new WebSocket(
      `${server.httpsUrl.replace('https', 'wss')}/v2022-06-30/socket/production?tag=sanity.studio`,
      {ca, origin, localAddress},
    )
    this.ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Message)
      for (const wake of this.waiters.splice(0)) wake()
    })
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve())
      this.ws.once('error', reject)
    })
  }

  async until(match: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = this.messages.find(match)
      if (found) return found
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    }
  }

  async call(method: string, params: Record<string, unknown> = {}): Promise<Message> {
    const id = `r${this.next++}`
    this.ws.send(
      JSON.stringify({jsonrpc: '2.0', method, params: {...params, apiVersion: 'v1'}, id}),
    )
    return this.until((m) => m.id === id)
  }
}

describe('the presence socket', () => {
  let server: Server
  let origin: string
  const clients: Client[] = []
  const connect = async (localAddress?: string) => {
    const client = new Client(server, origin, localAddress)
    clients.push(client)
    await client.opened()
    return client
  }

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
    origin = server.httpsUrl
  })
  afterAll(async () => {
    for (const client of clients) client.ws.terminate()
    await server.stop()
  })

  it('refuses everything but authorization until a valid token is given', async () => {
    const client = await connect()
    expect((await client.call('presence_subscribe')).error?.code).toBe(4001)
    expect((await client.call('authorization', {authorization: 'Bearer wrong'})).error?.code).toBe(
      4001,
    )
    expect(
      (await client.call('authorization', {authorization: `Bearer ${server.lake?.token}`})).result,
    ).toBe(true)
  })

  it('broadcasts announcements, roll calls and disconnects to the other sessions', async () => {
    const [a, b] = [await connect(), await connect()]
    for (const client of [a, b])
      await client.call('authorization', {authorization: `Bearer ${server.lake?.token}`})
    const subA = (await a.call('presence_subscribe')).result
    await b.call('presence_subscribe')
    const locations = [
      {
        type: 'document',
        documentId: 'post-1',
        path: ['title'],
        lastActiveAt: new Date().toISOString(),
      },
    ]
    await b.call('presence_announce', {data: {sessionId: 'session-b', locations}})
    const state = await a.until((m) => m.params?.result.type === 'state')
    expect(state).toMatchObject({
      method: 'presence_subscription',
      params: {subscription: subA, result: {i: 'p-owner', m: {sessionId: 'session-b', locations}}},
    })
    expect(b.messages.some((m) => m.method === 'presence_subscription')).toBe(false)

    await b.call('presence_rollcall', {session: 'session-b'})
    await a.until((m) => m.params?.result.type === 'rollCall')
    b.ws.close()
    const gone = await a.until((m) => m.params?.result.type === 'disconnect')
    expect(gone.params?.result).toEqual({
      type: 'disconnect',
      i: 'p-owner',
      m: {session: 'session-b'},
    })
  })

  it("ignores a reloaded tab's late goodbye from its old socket once the new one announced the session", async () => {
    const [watcher, old, reloaded] = [await connect(), await connect(), await connect()]
    for (const client of [watcher, old, reloaded])
      await client.call('authorization', {authorization: `Bearer ${server.lake?.token}`})
    await watcher.call('presence_subscribe')
    const data = {
      sessionId: 'session-r',
      locations: [
        {type: 'document', documentId: 'post-1', path: [], lastActiveAt: new Date().toISOString()},
      ],
    }
    await old.call('presence_announce', {data})
    await reloaded.call('presence_announce', {data})
    await old.call('presence_disconnect', {session: 'session-r'})
    // The server handles messages in order: anything the stale goodbye caused reaches the
    // watcher before this roll call does.
    await reloaded.call('presence_rollcall', {session: 'session-r'})
    await watcher.until((m) => m.params?.result.type === 'rollCall')
    expect(watcher.messages.filter((m) => m.params?.result.type === 'disconnect')).toEqual([])
    await reloaded.call('presence_disconnect', {session: 'session-r'})
    const gone = await watcher.until((m) => m.params?.result.type === 'disconnect')
    expect(gone.params?.result).toEqual({
      type: 'disconnect',
      i: 'p-owner',
      m: {session: 'session-r'},
    })
  })

  it('refuses sockets from foreign origins and unknown methods', async () => {
    const foreign = new Client(server, 'https://evil.example')
    clients.push(foreign)
    await expect(foreign.opened()).rejects.toThrow(/403/)
    const client = await connect()
    await client.call('authorization', {authorization: `Bearer ${server.lake?.token}`})
    expect((await client.call('presence_teleport')).error?.code).toBe(-32601)
  })

  it('answers a malformed upgrade path 400 on the socket and keeps serving (both listeners)', async () => {
    const httpPort = Number(new URL(server.url).port)
    const httpsPort = Number(new URL(server.httpsUrl).port)
    const ca = readFileSync(join(server.dataDir, 'localhost-cert.pem'))
    const upgrade = (path: string) =>
      [
        `GET ${path} HTTP/1.1`,
        'Host: localhost',
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        '',
        '',
      ].join('\r\n')
    const exchange = (secure: boolean, request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = secure
          ? connectTls({host: '127.0.0.1', port: httpsPort, servername: 'localhost', ca})
          : connectTcp({host: '127.0.0.1', port: httpPort})
        let answer = ''
        socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(request))
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
        socket.on('close', () => resolve(answer))
        socket.on('error', reject)
      })
    for (const secure of [false, true]) {
      for (const path of [
        '/v2022-06-30/socket/%',
        '/v2022-06-30/socket/%E0%A4%A',
        '/v2022-06-30/socket/%25%',
      ]) {
        expect(await exchange(secure, upgrade(path))).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
      }
      // A valid escape of another dataset is not malformed: it is a dataset we do not have.
      expect(await exchange(secure, upgrade('/v2022-06-30/socket/%25'))).toMatch(/^HTTP\/1\.1 404 /)
    }
    const after = await fetch(`${server.url}/v2021-06-07/users/me`, {
      headers: {authorization: `Bearer ${server.lake?.token}`},
    })
    expect(after.status).toBe(200)
    const client = await connect()
    expect(
      (await client.call('authorization', {authorization: `Bearer ${server.lake?.token}`})).result,
    ).toBe(true)
  })

  it(`caps sockets per client at ${maxSocketsPerClient} (429), while another address still connects`, async () => {
    const held: Client[] = []
    for (let i = 0; i < maxSocketsPerClient; i++) held.push(await connect('127.0.0.3'))
    const over = new Client(server, origin, '127.0.0.3')
    clients.push(over)
    await expect(over.opened()).rejects.toThrow(/429/)
    const other = await connect('127.0.0.4')
    expect(
      (await other.call('authorization', {authorization: `Bearer ${server.lake?.token}`})).result,
    ).toBe(true)
    for (const client of held) client.ws.terminate()
  })
})
