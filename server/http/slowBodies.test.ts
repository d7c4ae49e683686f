import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {readConfig} from '../env.ts'
import {startServer, type RunningServer} from '../start.ts'
import {postFrom} from '../../test/support/fromAddress.ts'
import {edgeLimits} from './limits.ts'
import {closedBy, openPartial} from './testing/raw.ts'

// The production limits, except a body grace short enough to wait for.
const bodyGraceMs = 500
let server: RunningServer
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-slow-bodies-'))
  server = await startServer(readConfig({PORT: '0', HTTPS_PORT: '0', DATA_DIR: dataDir}), {
    ...edgeLimits,
    bodyGraceMs,
    minBodyBytesPerSecond: 1024,
    checkIntervalMs: 100,
  })
})
afterAll(async () => {
  await server.close()
  rmSync(dataDir, {recursive: true, force: true})
})

describe('the pace of a request body', () => {
  it('answers a body that trickles 408 and closes its connection soon after the grace', async () => {
    const started = Date.now()
    const socket = await openPartial(
      server.config.port,
      'POST /api/contact HTTP/1.1\r\nHost: localhost\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\nn',
      '127.0.0.31',
    )
    const closing = closedBy(socket)
    // One byte every 100 ms: 10 bytes/s, a hundredth of the minimum.
    const drip = setInterval(() => socket.write('a'), 100)
    const answer = await closing
    clearInterval(drip)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(Date.now() - started).toBeLessThan(bodyGraceMs + 2_000)
  })

  it('lets a body that arrives at once through, however long the answer takes', async () => {
    const body = JSON.stringify({
      query: 'count(*[_id in $ids])',
      // Under a visitor's 64 KiB cap for a POSTed query (security review 3, M3).
      params: {ids: Array(12_000).fill('x')},
    })
    const answer = await postFrom(
      `${server.url}/v2023-07-29/data/query/production`,
      '127.0.0.32',
      body,
    )
    expect(answer.status).toBe(200)
  })
})
