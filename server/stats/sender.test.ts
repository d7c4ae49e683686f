import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterEach, expect, it, vi} from 'vitest'
import {remoteSink} from './sender.ts'
import type {Batch} from './tally.ts'

// A real HTTP server on loopback stands for the content process: away (503), then back.
let server: Server | undefined
afterEach(() => {
  server?.close()
  vi.restoreAllMocks()
})

const batch = (n: number): Batch => ({
  counts: [{hour: '2026-11-27T10', dimension: 'total', value: '', pageviews: n, visitors: n}],
  feeds: [],
})

it('keeps a bounded backlog while the content process is away, drops the oldest with a logged count, and sends the rest in order', async () => {
  const received: number[] = []
  const tokens = new Set<string>()
  let away = true
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      if (away) return void response.writeHead(503).end()
      tokens.add(request.headers.authorization ?? '')
      received.push((JSON.parse(body) as Batch).counts[0].pageviews)
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  const warnings: string[] = []
  vi.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(line))
  vi.spyOn(console, 'error').mockImplementation(() => {})
  const send = remoteSink(`http://127.0.0.1:${port}`, 's'.repeat(32), 3)
  for (let n = 1; n <= 5; n++) await send(batch(n))
  expect(received).toEqual([])
  expect(warnings.filter((line) => line.includes('dropped'))).toEqual([
    '[stats] the content process is unreachable: dropped the 1 oldest batch(es) (1 so far)',
    '[stats] the content process is unreachable: dropped the 1 oldest batch(es) (2 so far)',
  ])
  away = false
  await send(batch(6))
  expect(received).toEqual([4, 5, 6])
  expect([...tokens]).toEqual([`Bearer ${'s'.repeat(32)}`])
})
