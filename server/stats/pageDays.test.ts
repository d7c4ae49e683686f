import {afterAll, beforeAll, expect, it} from 'vitest'
import {startStatsApp, type StatsApp} from './testing/statsApp.ts'
import {post, userAgents} from './testing.ts'

// One page's days (what a post's document shows as its own readers): `daily.json?page=`.
let stats: StatsApp

beforeAll(async () => {
  stats = await startStatsApp()
  for (const [path, address, agent] of [
    [post, '198.51.100.7', userAgents.iPhoneSafari],
    [post, '198.51.100.7', userAgents.iPhoneSafari],
    [post, '203.0.113.9', userAgents.windowsChrome],
    ['/blog', '203.0.113.9', userAgents.windowsChrome],
  ]) {
    const page = await stats.request(path, {
      headers: {'user-agent': agent, 'x-forwarded-for': address},
    })
    expect(page.status).toBe(200)
  }
}, 120_000)
afterAll(() => stats?.stop())

it("gives a page's own visitors and views per day, every day of the period", async () => {
  const today = new Date().toISOString().slice(0, 10)
  const table = await stats.table('daily', `days=30&page=${encodeURIComponent(post)}`)
  expect(table.columns).toEqual(['date', 'visitors', 'pageviews'])
  expect(table.rows).toHaveLength(30)
  expect(table.rows.at(-1)).toEqual([today, 2, 3])
  expect(
    table.rows.slice(0, -1).every(([, visitors, views]) => visitors === 0 && views === 0),
  ).toBe(true)
  // The whole site's day still has all four views.
  expect((await stats.table('daily', 'days=1')).rows).toEqual([[today, 2, 4]])
  expect((await stats.table('daily', 'days=1&page=%2Fno-such-page')).rows).toEqual([[today, 0, 0]])
})

it('refuses a page that is no path, too long, or on another table (400)', async () => {
  for (const address of [
    'daily.json?page=blog',
    `daily.json?page=/${'x'.repeat(300)}`,
    'pages.json?page=%2Fblog',
  ]) {
    const response = await stats.request(`/api/stats/${address}`, {
      headers: {authorization: `Bearer ${stats.lake.token}`},
    })
    expect([address, response.status]).toEqual([address, 400])
  }
})
