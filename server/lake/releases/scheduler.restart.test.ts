import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {setTimeout as delay} from 'node:timers/promises'
import type {SanityClient} from '@sanity/client'
import {afterAll, expect, it} from 'vitest'
import {localClient} from '../../../test/support/localClient.ts'
import {startTestServer} from '../../../test/support/server.ts'
import {storeOf} from '../lake.ts'

// The scheduler across a crash: a release scheduled in a server that is then killed with
// SIGKILL, and started again after the release's time, is published at start, once.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-releases-restart-'))
const token = 'releases-restart-test-token-0123456789abcdef'
const cleanup: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const stop of cleanup.reverse()) await stop()
  rmSync(dataDir, {recursive: true, force: true})
})

/** The real server (server/main.ts) in a child process we can kill; resolves with its site URL. */
function startChild(): Promise<{child: ChildProcess; url: string}> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HTTPS_PORT: 'off',
      SEED: '0',
      DATA_DIR: dataDir,
      LAKE_TOKEN: token,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  cleanup.push(() => void child.kill('SIGKILL'))
  return new Promise((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = out.match(/Site:\s+(http:\/\/\S+)/)?.[1]
      if (url) resolve({child, url})
    })
  })
}

const clientOf = (url: string): SanityClient =>
  localClient(url, {
    apiVersion: '2025-02-19',
    token,
  })

it('a release due while the server was killed (SIGKILL) is published at the next start, once', async () => {
  const {child, url} = await startChild()
  const owner = clientOf(url)
  await owner.create({_id: 'crash-a', _type: 'post', title: 'Before the crash'})
  await owner.releases.create({releaseId: 'rCrash', metadata: {title: 'Crash'}})
  await owner.createVersion({baseId: 'crash-a', publishedId: 'crash-a', releaseId: 'rCrash'})
  await owner.replaceVersion({
    document: {_id: 'versions.rCrash.crash-a', _type: 'post', title: 'After the restart'},
  })
  const publishAt = Date.now() + 2000
  await owner.releases.schedule({releaseId: 'rCrash', publishAt: new Date(publishAt).toISOString()})
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited

  // The server stays down across the release's time: what is tested is the clock passing it.
  await delay(Math.max(0, publishAt - Date.now() + 200))
  const startedAt = Date.now()
  const server = await startTestServer({DATA_DIR: dataDir, SEED: '0', LAKE_TOKEN: token})
  cleanup.push(() => server.stop())
  const lake = server.lake!
  // Published before the server answered its first request.
  const release = lake.getDocument('_.releases.rCrash')
  expect(release).toMatchObject({state: 'published'})
  expect(Date.parse(String(release?.publishedAt))).toBeGreaterThanOrEqual(startedAt)
  expect(lake.getDocument('crash-a')).toMatchObject({title: 'After the restart'})
  expect(lake.getDocument('versions.rCrash.crash-a')).toBeUndefined()
  const publishes = () =>
    storeOf(lake)
      .transactionsFor('crash-a')
      .filter((tx) => tx.documents.some((d) => d.id === '_.releases.rCrash'))
  expect(publishes()).toHaveLength(1)
  expect(publishes()[0].author).toBe('p-owner')
  await server.stop()
  cleanup.pop()

  // Another start finds nothing left to publish.
  const again = await startTestServer({DATA_DIR: dataDir, SEED: '0', LAKE_TOKEN: token})
  cleanup.push(() => again.stop())
  expect(
    storeOf(again.lake!)
      .transactionsFor('crash-a')
      .filter((tx) => tx.documents.some((d) => d.id === '_.releases.rCrash')),
  ).toHaveLength(1)
}, 90_000)
