import {createServer, type Server} from 'node:http'
import {mkdtempSync, rmSync} from 'node:fs'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {Lake, authOf} from '../lake.ts'
import {PresenceHub} from './presence.ts'
import {closeUnauthorized} from './socketGuard.ts'
import {GuessPace} from '../../util/guessPace.ts'

/**
 * The presence hub's bounds with short timings, on a plain loopback HTTP server and a real lake
 * (the full server's hub uses the production timings, which a test cannot wait for).
 */
describe('presence socket bounds', () => {
  let dir: string
  let lake: Lake
  let hub: PresenceHub
  let http: Server
  let url: string
  let now = Date.now()
  const sockets: WebSocket[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scriptorium-presence-'))
    lake = new Lake({dataDir: dir, projectId: 'scriptorium', dataset: 'production'})
    // A throttled client's wrong token waits its pace, shorter here than the 300 ms deadline.
    authOf(lake).configure({now: () => now, pace: new GuessPace({delayMs: 20})})
    hub = new PresenceHub(lake, {
      allowOrigin: () => true,
      authTimeoutMs: 300,
      heartbeatMs: 100,
      maxPerClient: 3,
    })
    http = createServer((_, res) => res.end('ok'))
    http.on('upgrade', (request, socket, head) => {
      if (!hub.upgrade(request, socket, head)) socket.destroy()
    })
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/v2022-06-30/socket/production`
  })
  afterAll(async () => {
    for (const ws of sockets) ws.terminate()
    hub.close()
    await new Promise<void>((resolve) => http.close(() => resolve()))
    lake.close()
    rmSync(dir, {recursive: true, force: true})
  })

  const open = async (options: WebSocket.ClientOptions = {}) => {
    const ws = new WebSocket(url, options)
    sockets.push(ws)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    return ws
  }
  const closed = (ws: WebSocket) =>
    new Promise<{code: number; reason: string}>((resolve) =>
      ws.once('close', (code, reason) => resolve({code, reason: reason.toString()})),
    )
  type Reply = {id?: string; result?: unknown; error?: {code: number}}
  const call = (ws: WebSocket, method: string, params: Record<string, unknown>) =>
    new Promise<Reply>((resolve) => {
      const id = Math.random().toString(36).slice(2)
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as Reply
        if (message.id !== id) return
        ws.off('message', onMessage)
        resolve(message)
      }
      ws.on('message', onMessage)
      ws.send(JSON.stringify({jsonrpc: '2.0', id, method, params}))
    })
  const authorize = (ws: WebSocket, token: string) =>
    call(ws, 'authorization', {authorization: `Bearer ${token}`})

  it('closes a socket that does not authorize within the deadline', async () => {
    const ws = await open()
    const started = Date.now()
    expect(await closed(ws)).toEqual({code: closeUnauthorized, reason: 'Authorization timeout'})
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
  })

  it('keeps an authorized socket past the deadline, pinging it', async () => {
    const ws = await open()
    expect((await authorize(ws, lake.token)).result).toBe(true)
    // Six pings at 100 ms apart: the 300 ms deadline has passed and the socket still answers.
    await new Promise<void>((resolve) => {
      let pings = 0
      ws.on('ping', () => ++pings === 6 && resolve())
    })
    expect(ws.readyState).toBe(WebSocket.OPEN)
    expect((await call(ws, 'presence_subscribe', {})).result).toEqual(expect.any(String))
    ws.close()
  })

  it('terminates a socket that stops answering pings', async () => {
    const ws = await open({autoPong: false})
    await authorize(ws, lake.token)
    expect((await closed(ws)).code).toBe(1006) // terminated, no close frame
  })

  it('refuses a client over its socket cap with 429, and lets it in again once one closes', async () => {
    const held = [await open(), await open(), await open()]
    for (const ws of held) await authorize(ws, lake.token)
    await expect(open()).rejects.toThrow(/429/)
    held[0].close()
    await closed(held[0])
    const again = await open()
    expect((await authorize(again, lake.token)).result).toBe(true)
    for (const ws of [...held, again]) ws.close()
    await Promise.all([...held.slice(1), again].map(closed))
  })

  it("closes a session's socket at logout, and at expiry", async () => {
    const a = await open()
    const sessionA = authOf(lake).createSession()
    expect((await authorize(a, sessionA)).result).toBe(true)
    const aClosed = closed(a)
    authOf(lake).revokeSession(sessionA)
    expect(await aClosed).toEqual({code: closeUnauthorized, reason: 'Session ended'})

    const b = await open()
    const sessionB = authOf(lake).createSession()
    expect((await authorize(b, sessionB)).result).toBe(true)
    now += 31 * 86_400_000 // past the default maximum age of 30 days
    expect(await closed(b)).toEqual({code: closeUnauthorized, reason: 'Session ended'})
    now = Date.now()
  })

  it('throttles wrong tokens per client and closes the socket; the right token still passes', async () => {
    const ws = await open()
    for (let i = 0; i < 10; i++)
      expect((await authorize(ws, `wrong-${i}`)).error?.code).toBe(closeUnauthorized)
    const wsClosed = closed(ws)
    expect((await authorize(ws, 'wrong-10')).error?.code).toBe(4029)
    expect((await wsClosed).code).toBe(closeUnauthorized)
    expect((await authorize(await open(), lake.token)).result).toBe(true)
  })
})
