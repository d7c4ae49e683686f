import {forwardedRead, forwarderHolding} from '../../test/support/heldUpstream.ts'
import {Hono} from 'hono'
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {startServerWithMail} from '../../test/support/serverWithMail.ts'
import {searchesPerWindow, searchRateLimit} from '../render/searchRate.ts'
import {errorResponse} from './errorResponse.ts'
import {nodeRequest} from './testing/nodeRequest.ts'
import {subscribePath} from '../../shared/siteConfig.ts'

// Security review 2, finding 5: 20 requests with 20 kB malformed paths grew the log by 403 kB,
// and every 500 wrote its stack trace. Each is now written once per kind per minute.
let server: Awaited<ReturnType<typeof startTestServer>>

beforeAll(async () => {
  server = await startTestServer({SEED: '0'})
})
afterAll(() => server.stop())
afterEach(() => vi.restoreAllMocks())

/** Everything written to the console while `run` runs, in characters (still printed). */
async function logged(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error'] as const) {
    const original = console[level].bind(console)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '))
      original(...args)
    })
  }
  try {
    await run()
  } finally {
    vi.restoreAllMocks()
  }
  return lines
}

describe('log volume under floods', () => {
  it('20 requests for 20 kB malformed addresses get 404 pages and write one short line', async () => {
    const statuses: number[] = []
    const lines = await logged(async () => {
      for (let i = 0; i < 20; i++) {
        const path = `/blog/${i}%E0%A4%A${'x'.repeat(20_000)}`
        statuses.push((await nodeRequest(`${server.url}${path}`)).status)
      }
    })
    expect(statuses).toEqual(Array(20).fill(404))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('malformed escape')
    expect(lines.join('').length).toBeLessThan(1_000)
  })

  it('a handler that keeps failing is answered 500 each time and logged once, with its stack', async () => {
    const app = new Hono()
    app.onError(errorResponse)
    app.get('/boom', () => {
      throw new Error('a bug in a handler')
    })
    const answers: Response[] = []
    const lines = await logged(async () => {
      for (let i = 0; i < 20; i++) answers.push(await app.request('/boom'))
    })
    for (const answer of answers) {
      expect(answer.status).toBe(500)
      expect(await answer.json()).toEqual({
        error: {type: 'internalServerError', description: 'Internal server error'},
      })
    }
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('Error: a bug in a handler')
    expect(lines[0]).toContain('logVolume.test.ts')
  })

  it('a site process writes one line for 20 forwards refused as too many in flight, and one for 20 too large', async () => {
    // Security review 3, L1: each forward 429 and 413 was a console.warn of its own.
    const {upstream, held, app, waiting} = await forwarderHolding(8)
    const url = forwardedRead
    try {
      const refused: number[] = []
      const busyLines = await logged(async () => {
        for (let i = 0; i < 20; i++) refused.push((await app.request(url)).status)
      })
      expect(refused).toEqual(Array(20).fill(429))
      expect(busyLines).toHaveLength(1)
      expect(busyLines[0]).toContain('[forward] 429')
      for (const release of held) release()
      await Promise.all(waiting)

      const tooLarge: number[] = []
      const largeLines = await logged(async () => {
        for (let i = 0; i < 20; i++) {
          const body = new URLSearchParams({email: 'a@example.com', note: 'x'.repeat(8 * 1024)})
          tooLarge.push(
            (await app.request(`http://site.test${subscribePath}`, {method: 'POST', body})).status,
          )
        }
      })
      expect(tooLarge).toEqual(Array(20).fill(413))
      expect(largeLines).toHaveLength(1)
      expect(largeLines[0]).toContain('[forward] 413')
      expect(held).toHaveLength(8)
    } finally {
      await upstream.close()
    }
  })

  // Security review 3, L1: the newsletter's refusals and refused searches wrote a line each.
  it('40 bad unsubscribe links from one client: 400s then 429s, one line per kind', async () => {
    const running = await startServerWithMail()
    try {
      const statuses: number[] = []
      const lines = await logged(async () => {
        for (let i = 0; i < 40; i++) {
          const res = await fetch(`${running.server.url}/api/unsubscribe?token=AAAA.${i}`, {
            headers: {'x-forwarded-for': '10.77.0.1'},
          })
          await res.body?.cancel()
          statuses.push(res.status)
        }
      })
      expect(statuses).toEqual([...Array(30).fill(400), ...Array(10).fill(429)])
      const written = lines.filter((line) => line.includes('→ newsletter'))
      expect(written).toHaveLength(2)
      expect(written[0]).toContain('from 10.77.0.0/24 → newsletter 400 forged unsubscribe token')
      expect(written[1]).toContain('from 10.77.0.0/24 → newsletter 429')
    } finally {
      await running.stop()
    }
  })

  it('a client over the search limit gets 429 pages and one line', async () => {
    const app = new Hono()
    app.get('/search', searchRateLimit(), (c) => c.text('results'))
    const statuses: number[] = []
    const lines = await logged(async () => {
      for (let i = 0; i < searchesPerWindow + 20; i++)
        statuses.push((await app.request(`/search?q=word${i}`)).status)
    })
    expect(statuses).toEqual([...Array(searchesPerWindow).fill(200), ...Array(20).fill(429)])
    expect(lines.filter((line) => line.startsWith('[search]'))).toHaveLength(1)
  })
})
