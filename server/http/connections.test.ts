import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Socket} from 'node:net'
import {request, type IncomingMessage} from 'node:http'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {readConfig} from '../env.ts'
import {startServer, type RunningServer} from '../start.ts'
import {getFrom} from '../../test/support/fromAddress.ts'
import {anonymousStreamsInAll, edgeLimits} from './limits.ts'
import {closedBy, openPartial} from './testing/raw.ts'

// Security review 2, finding 2, at a small scale: the production limits, except a listener of
// 12 connections and 4 per address, so that 3 addresses fill it as 4 × 256 filled 1,024.
const maxConnections = 12
const maxConnectionsPerClient = 4
let server: RunningServer
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-connections-'))
  server = await startServer(readConfig({PORT: '0', HTTPS_PORT: '0', DATA_DIR: dataDir}), {
    ...edgeLimits,
    maxConnections,
    maxConnectionsPerClient,
  })
})
afterAll(async () => {
  await server.close()
  rmSync(dataDir, {recursive: true, force: true})
})

/** Headers of a 60 kB contact post and its first byte; the rest would come a byte at a time. */
const trickle =
  'POST /api/contact HTTP/1.1\r\nHost: localhost\r\n' +
  'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\nn'

describe('connections shared among addresses', () => {
  it('addresses trickling bodies into every slot cannot keep a new client from being answered', async () => {
    const attackers = ['127.0.0.21', '127.0.0.22', '127.0.0.23']
    const held: Socket[] = []
    for (const address of attackers)
      for (let i = 0; i < maxConnectionsPerClient; i++)
        held.push(await openPartial(server.config.port, trickle, address))
    const closings = held.map(closedBy)
    // An attacker's fifth is over its own share.
    expect(await closedBy(await openPartial(server.config.port, trickle, attackers[0]))).toBe('')

    const newcomer = await getFrom(`${server.url}/healthz`, '127.0.0.24')
    expect(newcomer.status).toBe(200)
    // Well inside the 10 s body grace: room was made at once, not by a timeout.
    expect(newcomer.ms).toBeLessThan(1_000)
    // ... by closing one attacker's oldest connection.
    const closed = await Promise.race([
      Promise.any(closings).then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 1_000)),
    ])
    expect(closed).toBe(true)
    for (const socket of held) socket.destroy()
  })

  it('addresses holding one live-events stream each leave half the listener to newcomers', async () => {
    // Security review 3, L5: 1,024 addresses × 1 stream filled the listener, and a newcomer's
    // connection was closed at once. Here 12 addresses ask for one stream each on a listener of 12.
    const inAll = anonymousStreamsInAll({...edgeLimits, maxConnections})
    expect(inAll).toBe(maxConnections / 2)
    const answers = await Promise.all(
      Array.from({length: maxConnections}, (_, i) => openStream(`127.0.2.${i + 1}`)),
    )
    const open = answers.filter((answer) => answer.status === 200)
    const refused = answers.filter((answer) => answer.status !== 200)
    expect(open).toHaveLength(inAll)
    for (const answer of refused) {
      expect(answer.status).toBe(503)
      expect(answer.headers['retry-after']).toBe('10')
      expect(JSON.parse(answer.body)).toMatchObject({error: {type: 'serviceUnavailable'}})
    }
    // A newcomer is served while the streams stay open (once the refused ones have gone).
    await vi.waitFor(
      async () => {
        const newcomer = await getFrom(`${server.url}/healthz`, '127.0.2.100').catch(
          () => undefined,
        )
        expect(newcomer?.status).toBe(200)
      },
      {timeout: 10_000, interval: 100},
    )
    expect(open.every((answer) => !answer.res.destroyed)).toBe(true)
    for (const answer of open) answer.res.destroy()
    // A stream's place comes back when it ends.
    await vi.waitFor(
      async () => {
        const again = await openStream('127.0.2.101')
        again.res.destroy()
        expect(again.status).toBe(200)
      },
      {timeout: 15_000},
    )
  })
})

interface StreamAnswer {
  status: number
  headers: IncomingMessage['headers']
  /** The body of a refusal; a stream's is left unread. */
  body: string
  res: IncomingMessage
}

/** A visitor's live-events stream from `localAddress`: held open when it is answered 200. */
function openStream(localAddress: string): Promise<StreamAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/v2025-02-19/data/live/events/production`,
      {localAddress, agent: false, headers: {accept: 'text/event-stream'}},
      (res) => {
        const answer = {status: res.statusCode ?? 0, headers: res.headers, body: '', res}
        if (answer.status === 200) return resolve(answer)
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (answer.body += chunk))
        res.on('end', () => resolve(answer))
      },
    )
    req.on('error', reject)
    req.end()
  })
}
