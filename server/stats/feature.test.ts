import {randomBytes} from 'node:crypto'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {isbot} from 'isbot'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {writeBackup} from '../backup/backup.ts'
import {restoreBackup} from '../backup/restore.ts'
import {StatsStore} from './store.ts'
import {readTable} from './tables.ts'
import {viewBeaconPath} from '../../shared/constants.ts'
import {post, postTitle, scriptedDay, userAgents, type ScriptedRequest} from './testing.ts'

// The whole server on loopback, real HTTP: the scripted day, then the owner's tables.
const token = randomBytes(32).toString('hex')
let server: TestServer
const statuses: Array<[string, string, number]> = []

async function play(requests: ScriptedRequest[]): Promise<void> {
  const etags = new Map<string, string>()
  for (const request of requests) {
    const headers: Record<string, string> = {
      'user-agent': request.userAgent,
      'x-forwarded-for': request.address,
      ...request.headers,
    }
    const etag = etags.get(request.path)
    if (request.revalidate && etag) headers['if-none-match'] = etag
    if (request.beacon) headers['sec-fetch-site'] = 'same-origin'
    const response = await fetch(`${server.url}${request.path}`, {
      method: request.beacon ? 'POST' : (request.method ?? 'GET'),
      headers,
      redirect: 'manual',
      ...(request.beacon ? {body: JSON.stringify(request.beacon)} : {}),
    })
    await response.arrayBuffer()
    const tag = response.headers.get('etag')
    if (tag) etags.set(request.path, tag)
    statuses.push([request.who, request.path, response.status])
  }
}

/** A table as the owner downloads it, parsed back into cells. */
async function table(name: string, days = 2): Promise<string[][]> {
  const response = await fetch(`${server.url}/api/stats/${name}.csv?days=${days}`, {
    headers: {authorization: `Bearer ${token}`},
  })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  const lines = (await response.text()).trimEnd().split('\r\n')
  return lines.map((line) =>
    line === lines[0]
      ? line.split(',')
      : [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replaceAll('""', '"')),
  )
}

const body = (rows: string[][]) => rows.slice(1)

beforeAll(async () => {
  server = await startTestServer({LAKE_TOKEN: token, TRUST_PROXY: 'loopback'})
  await play(scriptedDay(server.url))
}, 120_000)

afterAll(() => server?.stop())

describe('reader statistics of a scripted day', () => {
  it('served every request as a reader would have seen it', () => {
    expect(isbot(userAgents.googlebot)).toBe(true)
    expect(statuses).toContainEqual(['dave', '/contact', 304])
    expect(statuses).toContainEqual(['carol', '/no-such-page', 404])
    expect(statuses.filter(([, , status]) => status !== 200 && status !== 304)).toEqual([
      ['erin', viewBeaconPath, 204],
      ['carol', '/no-such-page', 404],
    ])
  })

  it('counts five visitors and nine page views', async () => {
    const daily = body(await table('daily'))
    const sum = (column: number) => daily.reduce((total, row) => total + Number(row[column]), 0)
    expect(daily).toHaveLength(2)
    expect([sum(1), sum(2)]).toEqual([5, 9])
  })

  it('ranks the pages by views, posts by their titles', async () => {
    expect(await table('pages')).toEqual([
      ['path', 'title', 'visitors', 'pageviews'],
      ['/', '', '2', '2'],
      ['/blog', '', '2', '2'],
      [post, postTitle, '2', '2'],
      ['/contact', '', '1', '2'],
      ['/services', '', '1', '1'],
    ])
  })

  it('keeps referrers by host, the site itself and none as direct', async () => {
    expect(body(await table('referrers'))).toEqual([
      ['direct', '4', '6'],
      ['google.com', '1', '1'],
      ['mastodon.social', '1', '1'],
      ['news.ycombinator.com', '1', '1'],
    ])
  })

  it('keeps campaigns, devices and browsers', async () => {
    expect(body(await table('campaigns'))).toEqual([
      ['mastodon', '1', '1'],
      ['newsletter / email / launch', '1', '1'],
    ])
    expect(body(await table('devices'))).toEqual([
      ['desktop', '3', '5'],
      ['phone', '2', '4'],
    ])
    expect(body(await table('browsers'))).toEqual([
      ['Chrome', '2', '3'],
      ['Firefox', '2', '3'],
      ['Safari', '1', '3'],
    ])
  })

  it('counts the broken link apart, and the feed readers an aggregator reports', async () => {
    expect(body(await table('notfound'))).toEqual([['/no-such-page', '1', '1']])
    const feeds = body(await table('feeds'))
    expect(feeds.map((row) => row.slice(1))).toEqual([['Feedly', '42']])
  })

  it('shows the visitors of the last five minutes', async () => {
    const response = await fetch(`${server.url}/api/stats/live.json`, {
      headers: {authorization: `Bearer ${token}`},
    })
    expect(await response.json()).toEqual({visitors: 5})
  })

  it('answers 401 to anyone but the owner, and 400 to a bad period', async () => {
    const anonymous = await fetch(`${server.url}/api/stats/daily.csv`)
    expect(anonymous.status).toBe(401)
    const wrong = await fetch(`${server.url}/api/stats/daily.csv`, {
      headers: {authorization: 'Bearer not-the-token'},
    })
    expect(wrong.status).toBe(401)
    for (const days of ['0', '367', '-1', '1e2', 'x']) {
      const response = await fetch(`${server.url}/api/stats/daily.csv?days=${days}`, {
        headers: {authorization: `Bearer ${token}`},
      })
      expect(response.status).toBe(400)
    }
    const unknown = await fetch(`${server.url}/api/stats/visitors.csv`, {
      headers: {authorization: `Bearer ${token}`},
    })
    expect(unknown.status).toBe(404)
  })
  it('refuses page reports that are not one of its pages shown to a reader, counting nothing', async () => {
    const before = body(await table('daily'))
    const report = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${viewBeaconPath}`, {
        method: 'POST',
        headers: {
          'user-agent': userAgents.linuxChrome,
          'x-forwarded-for': '192.0.2.200',
          ...headers,
        },
        body,
      })
    expect((await report(JSON.stringify({path: '/wp-admin.php'}))).status).toBe(400)
    expect((await report(JSON.stringify({path: '/blog/no-such-post'}))).status).toBe(400)
    expect((await report(JSON.stringify({path: '//evil.example/'}))).status).toBe(400)
    expect((await report('\u0000\u00ff not json')).status).toBe(400)
    expect((await report(JSON.stringify({path: '/', referrer: 'x'.repeat(4096)}))).status).toBe(413)
    const crossSite = await report(JSON.stringify({path: '/'}), {'sec-fetch-site': 'cross-site'})
    expect(crossSite.status).toBe(403)
    expect(body(await table('daily'))).toEqual(before)
  })

  it('is carried by a backup and back by a restore', async () => {
    // Reading a table writes what was counted; the backup then holds it.
    const days = body(await table('daily'))
    const dir = mkdtempSync(join(tmpdir(), 'stats-backup-'))
    try {
      await writeBackup(server.dataDir, join(dir, 'backup.tar.gz'))
      await restoreBackup(join(dir, 'backup.tar.gz'), join(dir, 'restored'))
      const store = new StatsStore(join(dir, 'restored'))
      const restored = readTable(store.db, 'daily', 2, Date.now()).rows
      store.close()
      expect(restored.map((row) => row.map(String))).toEqual(days)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
