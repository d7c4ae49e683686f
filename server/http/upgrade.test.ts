import {readFileSync} from 'node:fs'
import {connect as connectTcp} from 'node:net'
import {join} from 'node:path'
import {connect as connectTls} from 'node:tls'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {PresenceClient as Client} from '../../test/support/presenceClient.ts'
import {startTestServer} from '../../test/support/server.ts'

// WebSocket upgrades reach the app's two listeners (server/start.ts) through the edge's guard
// (server/http/edge.ts) before the lake's presence socket: the whole app, so both listeners.
describe('WebSocket upgrades at the edge', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const clients: Client[] = []

  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
  })
  afterAll(async () => {
    for (const client of clients) client.ws.terminate()
    await server.stop()
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
    const client = new Client(server.httpsUrl, {origin: server.httpsUrl, ca})
    clients.push(client)
    await client.opened()
    expect(
      (await client.call('authorization', {authorization: `Bearer ${server.lake?.token}`})).result,
    ).toBe(true)
  })
})
