import {createServer} from 'node:http'
import {Hono} from 'hono'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {mountForward} from './feature.ts'
import {seededPostCount} from '../../test/support/seededPosts.ts'

// A site process (LAKE_URL) in front of a content process (SERVE_SITE=0), both the real server
// in this process on loopback: what a public page's browser asks of the site that only the
// content process can answer is forwarded, bounded, and answered plainly when it is away.
type Server = Awaited<ReturnType<typeof startTestServer>>
let content: Server
let site: Server

beforeAll(async () => {
  content = await startTestServer({SERVE_SITE: '0'})
  site = await startTestServer({LAKE_URL: content.url})
})
afterAll(async () => {
  await site?.stop()
  await content?.stop()
})

const inbox = () =>
  content.lake!.query<string[]>(
    '*[_id in path("inbox.**")]._id',
    {},
    {authenticated: true, perspective: 'raw'},
  )
const message = {name: 'Ada', email: 'ada@example.com', message: 'Through the site process.'}

describe('a site process forwards to its content process', () => {
  it('holds no lake and starts no HTTPS listener', () => {
    expect(site.lake).toBeUndefined()
    expect(site.httpsUrl).toBe(site.config.siteUrl)
  })

  it('content reads (Load More), with the answer the content process gave', async () => {
    const query = encodeURIComponent('count(*[_type == "post"])')
    const res = await fetch(`${site.url}/v2023-07-29/data/query/production?query=${query}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({result: seededPostCount()})
    // Only the query path: the rest of the lake's API is not the site's.
    const doc = await fetch(`${site.url}/v2023-07-29/data/doc/production/anything`)
    expect(doc.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it('contact posts, stored by the content process; an oversized one is a 413 and stores nothing', async () => {
    const before = (await inbox()).length
    const res = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json'},
      body: JSON.stringify(message),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({success: true})
    expect((await inbox()).length).toBe(before + 1)

    const huge = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json'},
      body: JSON.stringify({...message, message: 'x'.repeat(1024 * 1024 + 1)}),
    })
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({error: {type: 'requestEntityTooLarge'}})
    expect((await inbox()).length).toBe(before + 1)
  })

  it('images, with the content process’s status', async () => {
    const res = await fetch(`${site.url}/images/scriptorium/production/${'a'.repeat(40)}-1x1.png`)
    expect(res.status).toBe(404)
  })
})

describe('when the content process is away', () => {
  it('content reads get a JSON 503 with Retry-After, a native contact post a page to read', async () => {
    await content.stop()
    const query = await fetch(`${site.url}/v2023-07-29/data/query/production?query=1`)
    expect(query.status).toBe(503)
    expect(query.headers.get('retry-after')).toBe('5')
    expect(await query.json()).toMatchObject({error: {type: 'serviceUnavailable'}})
    const post = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {'content-type': 'application/x-www-form-urlencoded'},
      body: new URLSearchParams(message).toString(),
    })
    expect(post.status).toBe(503)
    expect(await post.text()).toContain('Your message was not sent')
  })
})

describe('forwarding is bounded', () => {
  it('past 8 forwards in flight from one client, the next is a 429 with Retry-After', async () => {
    // A content process that has not answered yet: each request waits until released.
    const held: Array<() => void> = []
    const upstream = createServer((_req, res) => {
      held.push(() => res.writeHead(200, {'content-type': 'application/json'}).end('{}'))
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const address = upstream.address()
    if (address === null || typeof address === 'string') throw new Error('not a TCP listener')
    const app = new Hono()
    mountForward(app, `http://127.0.0.1:${address.port}`)
    try {
      const url = 'http://site.test/v2023-07-29/data/query/production?query=1'
      const waiting = Array.from({length: 8}, () => app.request(url))
      await vi.waitFor(() => expect(held).toHaveLength(8))
      const over = await app.request(url)
      expect(over.status).toBe(429)
      expect(over.headers.get('retry-after')).toBe('1')
      expect(await over.json()).toMatchObject({error: {type: 'tooManyRequests'}})
      for (const release of held) release()
      expect((await Promise.all(waiting)).map((res) => res.status)).toEqual(Array(8).fill(200))
      // Slots come back once answered.
      const again = app.request(url)
      await vi.waitFor(() => expect(held).toHaveLength(9))
      held[8]()
      expect((await again).status).toBe(200)
    } finally {
      upstream.closeAllConnections()
      await new Promise((resolve) => upstream.close(resolve))
    }
  })
})
