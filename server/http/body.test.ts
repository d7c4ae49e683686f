import {request as httpRequest} from 'node:http'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {BodyTooLargeError, readBody} from './body.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>
let server: Server

beforeAll(async () => {
  server = await startTestServer({SEED: '0'})
})
afterAll(() => server.stop())

/** Far beyond every cap: a server that buffered it whole would hold 64 MiB for one request. */
const floodBytes = 64 * 1024 * 1024
const chunk = Buffer.alloc(64 * 1024, 'a')

interface FloodResult {
  status: number | undefined
  body: string
  /** Bytes written when the answer arrived. */
  sent: number
}

/**
 * POSTs a chunked body (no Content-Length) of up to `floodBytes`, and stops sending as soon as
 * the server answers.
 */
function flood(path: string, contentType: string): Promise<FloodResult> {
  return new Promise((resolve, reject) => {
    let sent = 0
    let answered = false
    const req = httpRequest(`${server.url}${path}`, {
      method: 'POST',
      headers: {'content-type': contentType, 'transfer-encoding': 'chunked'},
    })
    req.on('response', (res) => {
      answered = true
      const at = sent
      let body = ''
      res.on('data', (data: Buffer) => (body += data.toString()))
      res.on('end', () => {
        req.destroy()
        resolve({status: res.statusCode, body, sent: at})
      })
    })
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const pump = () => {
      while (!answered && sent < floodBytes) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered) req.end()
    }
    pump()
  })
}

describe('request bodies are capped while they stream', () => {
  it('a chunked POST /data/query over the cap is a 413 before the client has sent it all', async () => {
    const result = await flood('/v2023-07-29/data/query/production', 'application/json')
    expect(result.status).toBe(413)
    expect(JSON.parse(result.body)).toMatchObject({error: {type: 'requestEntityTooLarge'}})
    expect(result.sent).toBeLessThan(floodBytes / 4)
  })

  it('a chunked POST /studio-login over the cap is a 413 before the client has sent it all', async () => {
    const result = await flood('/studio-login', 'application/x-www-form-urlencoded')
    expect(result.status).toBe(413)
    expect(result.sent).toBeLessThan(floodBytes / 4)
  })

  it('a chunked contact message over the cap is a 413 before the client has sent it all', async () => {
    const result = await flood('/api/contact', 'application/x-www-form-urlencoded')
    expect(result.status).toBe(413)
    expect(result.sent).toBeLessThan(floodBytes / 4)
  })

  it('a declared Content-Length over the cap is refused before the body is read', async () => {
    const res = await fetch(`${server.url}/v2023-07-29/data/mutate/production`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.lake?.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        mutations: [{create: {_type: 'x', pad: 'a'.repeat(11 * 1024 * 1024)}}],
      }),
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({error: {type: 'requestEntityTooLarge'}})
  })

  it('the server keeps serving, and stored nothing', async () => {
    const res = await fetch(`${server.url}/v2023-07-29/data/query/production?query=count(*)`, {
      headers: {authorization: `Bearer ${server.lake?.token}`},
    })
    expect(await res.json()).toMatchObject({result: 0})
  })
})

describe('readBody', () => {
  const stream = (...parts: string[]) =>
    new Request('http://localhost/', {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
          controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)

  it('returns a body within the cap whole', async () => {
    const body = await readBody(stream('ab', 'cd'), 4)
    expect(new TextDecoder().decode(body)).toBe('abcd')
  })

  it('stops at the first chunk past the cap', async () => {
    await expect(readBody(stream('ab', 'cd', 'e'), 4)).rejects.toBeInstanceOf(BodyTooLargeError)
  })
})
