import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {StatsStore} from './store.ts'
import {readTable} from './tables.ts'
import {startStatsApp} from './testing/statsApp.ts'
import {userAgents} from './testing.ts'

// The feature's close (server/start.ts closes the features on SIGTERM, after the listeners
// drained) writes the views counted since the last batch: none is lost to a graceful stop.
it('writes what was counted when the server stops gracefully, before the next batch was due', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'stats-stop-'))
  try {
    const stats = await startStatsApp({}, {dataDir})
    for (const path of ['/', '/contact']) {
      const page = await stats.request(path, {headers: {'user-agent': userAgents.iPhoneSafari}})
      expect(page.status).toBe(200)
    }
    await stats.stop()
    const store = new StatsStore(dataDir)
    const pages = readTable(store.db, 'pages', 2, Date.now()).rows
    store.close()
    expect(pages).toEqual([
      ['/', '', 1, 1],
      ['/contact', '', 1, 1],
    ])
  } finally {
    rmSync(dataDir, {recursive: true, force: true})
  }
}, 120_000)
