import {connect} from 'node:http2'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {nodeRequest} from './testing/nodeRequest.ts'
import {rawExchange} from './testing/raw.ts'

// Security review 2: API JSON and the contact error page had no `nosniff`. Every answer has it.
let server: Awaited<ReturnType<typeof startTestServer>>

beforeAll(async () => {
  server = await startTestServer({SEED: '0'})
})
afterAll(() => server.stop())

const contactError = {
  method: 'POST',
  headers: {'content-type': 'application/x-www-form-urlencoded', 'content-length': '0'},
}

describe('X-Content-Type-Options: nosniff', () => {
  it.each([
    ['API JSON', '/v2023-07-29/data/query/production?query=1', {}, 200],
    ['a lake error', '/v2023-07-29/data/query/production?query=%5B', {}, 400],
    ['a page', '/', {}, 200],
    ['the 404 page', '/no-such-page', {}, 404],
    ['a health check', '/healthz', {}, 200],
    ['a foreign Host', '/', {headers: {host: 'evil.example'}}, 421],
    ['the contact error page', '/api/contact', contactError, 400],
    ['the redirect to the Studio over HTTPS', '/studio', {}, 302],
  ])('is on %s (%s)', async (_, path, options, status) => {
    const answer = await nodeRequest(`${server.url}${path}`, options)
    expect(answer.status).toBe(status)
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
  })

  it("is on Node's own refusal of an unparseable request", async () => {
    const answer = await rawExchange(server.config.port, 'GARBAGE\r\n\r\n')
    expect(answer.status).toBe(400)
    expect(answer.text).toMatch(/x-content-type-options: nosniff/i)
  })

  it.each([
    ['API JSON', '/v2023-07-29/data/query/production?query=1'],
    ['the Studio', '/studio'],
  ])('is on HTTP/2 answers of the HTTPS listener: %s', async (_, path) => {
    const session = connect(server.httpsUrl, {rejectUnauthorized: false})
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const stream = session.request({':path': path})
      stream.on('response', resolve)
      stream.on('error', reject)
      stream.resume()
    })
    session.close()
    expect(headers[':status']).toBe(200)
    expect(headers['x-content-type-options']).toBe('nosniff')
  })
})
