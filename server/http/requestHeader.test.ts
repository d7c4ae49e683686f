import {request as httpRequest, createServer, type OutgoingHttpHeaders} from 'node:http'
import type {AddressInfo} from 'node:net'
import {getRequestListener} from '@hono/node-server'
import {Hono} from 'hono'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {requestHeader} from './requestHeader.ts'

const names = ['user-agent', 'referer', 'cookie', 'sec-gpc', 'sec-purpose', 'accept', 'x-absent']

const app = new Hono()
app.get('/', (c) =>
  c.json(
    Object.fromEntries(names.map((name) => [name, [requestHeader(c, name), c.req.header(name)]])),
  ),
)
const server = createServer(getRequestListener(app.fetch))
let origin = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

/** A GET with raw headers, repeated names included (fetch would join them itself). */
function get(headers: OutgoingHttpHeaders): Promise<Record<string, [unknown, unknown]>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/`, {headers}, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve(JSON.parse(body) as Record<string, [unknown, unknown]>))
    })
    req.on('error', reject).end()
  })
}

describe('requestHeader', () => {
  it("reads what Hono's c.req.header reads, from Node's parsed headers", async () => {
    const answers = await get({
      'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
      Referer: 'https://news.example/a?b=c',
      Cookie: ['a=1', 'preview=2'],
      'Sec-GPC': '1',
      Accept: ['text/html', 'application/xhtml+xml'],
    })
    for (const [name, [ours, hono]] of Object.entries(answers)) expect(ours, name).toEqual(hono)
    expect(answers.cookie[0]).toBe('a=1; preview=2')
    expect(answers.accept[0]).toBe('text/html, application/xhtml+xml')
    // Absent: undefined both ways (null once in JSON).
    expect(answers['x-absent']).toEqual([null, null])
  })

  it('falls back to Hono where no Node request is underneath (app.request)', async () => {
    const response = await app.request('/', {headers: {'user-agent': 'test-agent', 'sec-gpc': '1'}})
    const answers = (await response.json()) as Record<string, [unknown, unknown]>
    expect(answers['user-agent']).toEqual(['test-agent', 'test-agent'])
    expect(answers['sec-gpc']).toEqual(['1', '1'])
  })
})
