import {afterAll, beforeAll, expect, it} from 'vitest'
import {startStatsApp, type StatsApp} from './testing/statsApp.ts'
import {userAgents} from './testing.ts'

// ANALYTICS=0, in process: pages are served as ever, and nothing is counted.
let stats: StatsApp

beforeAll(async () => {
  stats = await startStatsApp({ANALYTICS: '0'})
}, 120_000)
afterAll(() => stats?.stop())

it('counts nothing with ANALYTICS=0, and still serves the tables', async () => {
  expect(stats.stats.countPage).toBeUndefined()
  for (const path of ['/', '/blog', '/no-such-page']) {
    const page = await stats.request(path, {headers: {'user-agent': userAgents.windowsChrome}})
    expect(page.status).toBe(path === '/no-such-page' ? 404 : 200)
  }
  const beacon = await stats.request('/api/stats/view', {
    method: 'POST',
    headers: {'user-agent': userAgents.windowsChrome, 'sec-fetch-site': 'same-origin'},
    body: JSON.stringify({path: '/blog'}),
  })
  expect(beacon.status).toBe(404)
  for (const name of ['daily', 'pages', 'notfound']) {
    const table = await stats.table(name, 'days=1')
    const views = table.rows.reduce((sum, row) => sum + Number(row.at(-1)), 0)
    expect([name, views]).toEqual([name, 0])
  }
})
