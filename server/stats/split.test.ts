import {randomBytes} from 'node:crypto'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {ingestPath} from './ingest.ts'
import {scriptedDay, type ScriptedRequest} from './testing.ts'

// The split deployment on loopback: a content process and two site processes, each visitor
// served by one of them (as Caddy's `lb_policy ip_hash` does), the content process restarted
// halfway through the day.
const ownerToken = randomBytes(32).toString('hex')
const statsToken = randomBytes(32).toString('hex')
const dataDir = mkdtempSync(join(tmpdir(), 'stats-split-'))
const running: TestServer[] = []
const siteOf: Record<string, number> = {alice: 0, carol: 0, erin: 0, owner: 0, bob: 1, dave: 1}

afterAll(async () => {
  for (const server of running.reverse()) await server.stop()
  rmSync(dataDir, {recursive: true, force: true})
})

async function startContent(port = '0'): Promise<TestServer> {
  const content = await startTestServer({
    PORT: port,
    DATA_DIR: dataDir,
    SERVE_SITE: '0',
    LAKE_TOKEN: ownerToken,
    STATS_TOKEN: statsToken,
  })
  running.push(content)
  return content
}

async function play(sites: TestServer[], requests: ScriptedRequest[]): Promise<void> {
  const etags = new Map<string, string>()
  for (const request of requests) {
    const site = sites[siteOf[request.who] ?? 1]
    const headers: Record<string, string> = {
      'user-agent': request.userAgent,
      'x-forwarded-for': request.address,
      ...request.headers,
      ...(request.beacon ? {'sec-fetch-site': 'same-origin'} : {}),
    }
    const etag = etags.get(request.path)
    if (request.revalidate && etag) headers['if-none-match'] = etag
    const response = await fetch(`${site.url}${request.path}`, {
      method: request.beacon ? 'POST' : (request.method ?? 'GET'),
      headers,
      ...(request.beacon ? {body: JSON.stringify(request.beacon)} : {}),
    })
    await response.arrayBuffer()
    const tag = response.headers.get('etag')
    if (tag) etags.set(request.path, tag)
  }
}

/** The day's totals on the content process, once the site processes' batches have arrived. */
async function dailyTotals(content: TestServer, expected: [number, number]): Promise<number[]> {
  let totals: number[] = []
  // Batches arrive every 5 s; waited for as a condition, within the test's own timeout.
  for (let attempt = 0; attempt < 120; attempt++) {
    const response = await fetch(`${content.url}/api/stats/daily.json?days=2`, {
      headers: {authorization: `Bearer ${ownerToken}`},
    })
    const table = (await response.json()) as {rows: Array<[string, number, number]>}
    totals = [1, 2].map((column) => table.rows.reduce((sum, row) => sum + Number(row[column]), 0))
    if (totals[0] === expected[0] && totals[1] === expected[1]) return totals
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return totals
}

it('counts the scripted day across two site processes and a content restart', async () => {
  let content = await startContent()
  const port = new URL(content.url).port
  const sites = [
    await startTestServer({
      LAKE_URL: content.url,
      STATS_TOKEN: statsToken,
      TRUST_PROXY: 'loopback',
    }),
    await startTestServer({
      LAKE_URL: content.url,
      STATS_TOKEN: statsToken,
      TRUST_PROXY: 'loopback',
    }),
  ]
  running.push(...sites)
  const day = scriptedDay(sites[0].url)
  // Alice's three pages and Bob's two: 2 visitors, 5 views.
  await play(sites, day.slice(0, 5))
  expect(await dailyTotals(content, [2, 5])).toEqual([2, 5])
  // The rest of the day, then at once a graceful restart of the content process: what the sites
  // had not sent yet, or could not while it was away, is kept and sent after.
  await play(sites, day.slice(5))
  await content.stop()
  running.splice(running.indexOf(content), 1)
  content = await startContent(port)
  expect(await dailyTotals(content, [5, 9])).toEqual([5, 9])
  // The live figure sums the site processes' visitors of the last 5 minutes (alice, carol and
  // erin on the first; bob and dave on the second); the restarted content process has it back
  // from their next reports.
  expect(await liveVisitors(content, 5)).toBe(5)
}, 180_000)

/** The content process's live figure, once it is `expected` (reports come every 5 s). */
async function liveVisitors(content: TestServer, expected: number): Promise<number> {
  let visitors = -1
  for (let attempt = 0; attempt < 120 && visitors !== expected; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500))
    const response = await fetch(`${content.url}/api/stats/live.json`, {
      headers: {authorization: `Bearer ${ownerToken}`},
    })
    visitors = ((await response.json()) as {visitors: number}).visitors
  }
  return visitors
}

it('refuses batches without STATS_TOKEN (401), oversized (413) or malformed (400)', async () => {
  const content = running.find((server) => server.config.serveSite === false)
  if (!content) throw new Error('no content process')
  const send = (body: string, token = statsToken) =>
    fetch(`${content.url}${ingestPath}`, {
      method: 'POST',
      headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
      body,
    })
  const batch = {
    counts: [
      {hour: '2026-11-27T10', dimension: 'total', value: '', pageviews: 1000, visitors: 1000},
    ],
    feeds: [],
  }
  expect((await send(JSON.stringify(batch), 'x'.repeat(64))).status).toBe(401)
  expect((await fetch(`${content.url}${ingestPath}`, {method: 'POST', body: '{}'})).status).toBe(
    401,
  )
  expect((await send('x'.repeat(5 * 1024 * 1024))).status).toBe(413)
  const forged = {...batch, counts: [{...batch.counts[0], dimension: 'secret'}]}
  expect((await send(JSON.stringify(forged))).status).toBe(400)
  expect((await send('{"counts": [], "feeds": "no"}')).status).toBe(400)
  expect(
    (
      await send(
        JSON.stringify({counts: [{...batch.counts[0], value: 'v'.repeat(300)}], feeds: []}),
      )
    ).status,
  ).toBe(400)
}, 60_000)
