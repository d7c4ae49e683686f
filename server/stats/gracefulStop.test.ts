import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {StatsStore} from './store.ts'
import {readTable} from './tables.ts'
import {userAgents} from './testing.ts'

it('writes what was counted when the server stops gracefully, before the next batch was due', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'stats-stop-'))
  try {
    const server = await startTestServer({DATA_DIR: dataDir})
    for (const path of ['/', '/contact']) {
      const page = await fetch(`${server.url}${path}`, {
        headers: {'user-agent': userAgents.iPhoneSafari},
      })
      expect(page.status).toBe(200)
      await page.arrayBuffer()
    }
    await server.stop()
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
