import {existsSync, mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {StatsStore, statsFile} from './store.ts'
import {readTable} from './tables.ts'
import {startStatsApp} from './testing/statsApp.ts'
import {post, userAgents} from './testing.ts'

// Hosted mode (SANITY_STUDIO_PROJECT_ID, no local lake): the process counts the pages it serves
// and keeps the counts in its own data dir; the tables are not served (no owner token to check).
it('keeps a hosted-mode process’s statistics in its own data dir', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'stats-hosted-'))
  try {
    const stats = await startStatsApp({SANITY_STUDIO_PROJECT_ID: 'abc123xy'}, {dataDir})
    expect(stats.stats.countPage).toBeDefined()
    for (const [path, address] of [
      ['/', '198.51.100.7'],
      [post, '198.51.100.7'],
      [post, '203.0.113.9'],
      ['/no-such-page', '203.0.113.9'],
    ]) {
      const page = await stats.request(path, {
        headers: {'user-agent': userAgents.windowsChrome, 'x-forwarded-for': address},
      })
      await page.arrayBuffer()
    }
    const table = await stats.request('/api/stats/daily.json', {
      headers: {authorization: `Bearer ${stats.lake.token}`},
    })
    expect(table.status).toBe(401)
    await stats.stop()
    expect(statSync(join(dataDir, statsFile)).mode & 0o777).toBe(0o600)
    // Not beside the lake's data: its own.
    expect(existsSync(join(stats.lake.dataDir, statsFile))).toBe(false)
    const store = new StatsStore(dataDir)
    try {
      const now = Date.now()
      expect(readTable(store.db, 'pages', 1, now).rows).toEqual([
        [post, '', 2, 2],
        ['/', '', 1, 1],
      ])
      expect(readTable(store.db, 'notfound', 1, now).rows).toEqual([['/no-such-page', 1, 1]])
    } finally {
      store.close()
    }
  } finally {
    rmSync(dataDir, {recursive: true, force: true})
  }
}, 120_000)
