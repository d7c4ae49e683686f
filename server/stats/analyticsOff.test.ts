import {randomBytes} from 'node:crypto'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {userAgents} from './testing.ts'

// ANALYTICS=0: pages are served as ever, and nothing is counted.
const token = randomBytes(32).toString('hex')
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({LAKE_TOKEN: token, ANALYTICS: '0'})
}, 120_000)
afterAll(() => server?.stop())

it('counts nothing with ANALYTICS=0, and still serves the tables', async () => {
  for (const path of ['/', '/blog', '/no-such-page']) {
    const page = await fetch(`${server.url}${path}`, {
      headers: {'user-agent': userAgents.windowsChrome},
    })
    await page.arrayBuffer()
  }
  const beacon = await fetch(`${server.url}/api/stats/view`, {
    method: 'POST',
    headers: {'user-agent': userAgents.windowsChrome},
    body: JSON.stringify({path: '/blog'}),
  })
  expect(beacon.status).toBe(404)
  for (const name of ['daily', 'pages', 'notfound']) {
    const response = await fetch(`${server.url}/api/stats/${name}.json?days=1`, {
      headers: {authorization: `Bearer ${token}`},
    })
    const table = (await response.json()) as {rows: unknown[][]}
    const views = table.rows.reduce((sum, row) => sum + Number(row.at(-1)), 0)
    expect([name, views]).toEqual([name, 0])
  }
})
