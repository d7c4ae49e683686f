import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {remotePreview} from './remotePreview.ts'

// The site process's question to its content process, against a stand-in on loopback that
// holds each check until the test answers it (the real exchange is server/forward/feature.test.ts).
interface Held {
  request: IncomingMessage
  answer(status: number): void
}
let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function contentStandIn(): Promise<{url: string; held: Held[]}> {
  const held: Held[] = []
  const server = createServer((request, response: ServerResponse) => {
    held.push({request, answer: (status) => response.writeHead(status).end('{}')})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('not a TCP listener')
  close = async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  return {url: `http://127.0.0.1:${address.port}`, held}
}

const token = (n: number) => `prv${String(n).padStart(43, '0')}`

describe('a site process asks whether a preview session is live', () => {
  it('every time: a live answer is never reused, and the visitor’s address goes along', async () => {
    const {url, held} = await contentStandIn()
    const preview = remotePreview(url)
    for (const round of [1, 2]) {
      const asked = preview.credential(token(1), '203.0.113.7')
      await vi.waitFor(() => expect(held).toHaveLength(round), {timeout: 15_000})
      expect(held[round - 1].request.headers.authorization).toBe(`Bearer ${token(1)}`)
      expect(held[round - 1].request.headers['x-forwarded-for']).toBe('203.0.113.7')
      held[round - 1].answer(200)
      expect(await asked).toEqual({authorization: `Bearer ${token(1)}`})
    }
  })

  it('a refused token is remembered as no session; a busy content process is not', async () => {
    const {url, held} = await contentStandIn()
    const preview = remotePreview(url)
    const busy = preview.credential(token(2), '203.0.113.7')
    await vi.waitFor(() => expect(held).toHaveLength(1), {timeout: 15_000})
    held[0].answer(503)
    expect(await busy).toBeUndefined()
    const refused = preview.credential(token(2), '203.0.113.7')
    await vi.waitFor(() => expect(held).toHaveLength(2), {timeout: 15_000})
    held[1].answer(401)
    expect(await refused).toBeUndefined()
    // Asked of nobody: the stand-in sees no third check.
    expect(await preview.credential(token(2), '203.0.113.7')).toBeUndefined()
    expect(held).toHaveLength(2)
  })

  it('past 4 checks in flight from one visitor, the next renders as a visitor’s page without asking', async () => {
    const {url, held} = await contentStandIn()
    const preview = remotePreview(url)
    const waiting = [1, 2, 3, 4].map((n) => preview.credential(token(n), '203.0.113.7'))
    await vi.waitFor(() => expect(held).toHaveLength(4), {timeout: 15_000})
    expect(await preview.credential(token(5), '203.0.113.7')).toBeUndefined()
    // Another visitor still gets an answer.
    const other = preview.credential(token(6), '198.51.100.1')
    await vi.waitFor(() => expect(held).toHaveLength(5), {timeout: 15_000})
    for (const check of held) check.answer(200)
    expect(await other).toBeDefined()
    expect((await Promise.all(waiting)).every((credential) => credential !== undefined)).toBe(true)
    // Slots come back once answered.
    const again = preview.credential(token(5), '203.0.113.7')
    await vi.waitFor(() => expect(held).toHaveLength(6), {timeout: 15_000})
    held[5].answer(200)
    expect(await again).toBeDefined()
  })
})
