import {randomBytes} from 'node:crypto'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createClient, type SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startServerProcess, type ServerProcess} from '../../bench/serverProcess.ts'
import {apiVersion, defaultDataset, localProjectId} from '../../shared/constants.ts'
import {seededPostCount} from '../../test/support/seededPosts.ts'

// One content process (SERVE_SITE=0) and two site processes (LAKE_URL) on loopback, each its
// own `node server/main.ts`, as docs/deploy.md runs them; publishes go through @sanity/client.

const token = randomBytes(24).toString('base64url')
const post = {
  id: 'post-ghostwriting-without-losing-your-voice',
  path: '/blog/ghostwriting-without-losing-your-voice',
}
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-scale-'))
let content: ServerProcess
let contentPort = 0
let sites: ServerProcess[] = []
let owner: SanityClient

/** The content process on its data dir (kept across restarts), on the same port each time. */
const startContent = () =>
  startServerProcess({
    dataDir,
    port: contentPort,
    env: {SERVE_SITE: '0', LAKE_TOKEN: token, HTTPS_PORT: '0'},
  })

const get = (site: ServerProcess, path: string) =>
  fetch(`${site.url}${path}`, {signal: AbortSignal.timeout(10_000)})

/** Polls every 20 ms until every site's page at `path` contains `text`, at most `withinMs`. */
async function untilAllShow(path: string, text: string, withinMs: number) {
  const started = performance.now()
  await vi.waitFor(
    async () => {
      for (const site of sites) expect(await (await get(site, path)).text()).toContain(text)
    },
    {timeout: withinMs, interval: 20},
  )
  return performance.now() - started
}

async function cacheOf(site: ServerProcess, path: string) {
  const response = await get(site, path)
  await response.arrayBuffer()
  return {status: response.status, cache: response.headers.get('x-cache'), response}
}

/** The page's X-Cache once the site's live stream is back (it answers STALE while away). */
async function cacheOnceLive(site: ServerProcess, path: string) {
  let cache: string | null = null
  await vi.waitFor(
    async () => {
      cache = (await cacheOf(site, path)).cache
      expect(cache).not.toBe('STALE')
    },
    {timeout: 10_000, interval: 50},
  )
  return cache
}

beforeAll(async () => {
  content = await startContent()
  contentPort = Number(new URL(content.url).port)
  sites = await Promise.all([0, 1].map(() => startServerProcess({env: {LAKE_URL: content.url}})))
  owner = createClient({
    projectId: localProjectId,
    dataset: defaultDataset,
    apiVersion,
    apiHost: content.url,
    useProjectHostname: false,
    useCdn: false,
    token,
  })
  // Ready once the content process has welcomed its live events.
  await vi.waitFor(
    async () => {
      for (const site of sites) expect((await get(site, '/readyz')).status).toBe(200)
    },
    {timeout: 20_000, interval: 50},
  )
  for (const site of sites)
    for (const path of ['/blog', post.path, '/services']) {
      expect((await cacheOf(site, path)).status).toBe(200)
      expect((await cacheOf(site, path)).cache, path).toBe('HIT')
    }
}, 60_000)

afterAll(async () => {
  await Promise.all([...sites, content].map((process) => process?.stop()))
  rmSync(dataDir, {recursive: true, force: true})
})

describe('one content process, two site processes', () => {
  it('the content process serves no pages; the sites forward the content reads', async () => {
    const page = await fetch(`${content.url}/services`)
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('content process')
    // Load More's read, from a browser on the site's origin.
    const query = await get(
      sites[0],
      `/v${apiVersion}/data/query/${defaultDataset}?query=count(*%5B_type%3D%3D%22post%22%5D)`,
    )
    expect(query.status).toBe(200)
    expect(await query.json()).toMatchObject({result: seededPostCount()})
  })

  it('a publish reaches both sites within 1 s, and a page without queries stays cached', async () => {
    await owner.patch(post.id).set({title: 'Ghostwriting, first revision'}).commit()
    const ms = await untilAllShow(post.path, 'Ghostwriting, first revision', 1_000)
    console.log(`[scale] publish → both sites fresh: ${Math.round(ms)} ms`)
    for (const site of sites) expect((await cacheOf(site, '/services')).cache).toBe('HIT')
  })

  it('a new post appears on both /blog pages within 1 s', async () => {
    await owner.create({
      _id: 'post-scale-new',
      _type: 'post',
      title: 'A post the list did not hold',
      slug: {_type: 'slug', current: 'scale-new'},
      date: '2099-01-01',
      category: 'General',
    })
    await untilAllShow('/blog', 'A post the list did not hold', 1_000)
  })

  it('after the content process restarts on its data dir, publishes still reach both sites, resumed without a clear-all', async () => {
    await content.stop()
    content = await startContent()
    await owner.patch(post.id).set({title: 'Ghostwriting, after the restart'}).commit()
    await untilAllShow(post.path, 'Ghostwriting, after the restart', 3_000)
    // While a site's stream is away it marks what it serves STALE; once resumed, a clear-all
    // would have dropped the page without queries (a MISS): it is still a HIT.
    for (const site of sites) expect(await cacheOnceLive(site, '/services')).toBe('HIT')
  }, 60_000)

  it('with the content process stopped, cached pages are served marked stale; an uncached page is a 503 with Retry-After', async () => {
    await content.stop()
    for (const site of sites) {
      const services = await cacheOf(site, '/services')
      expect(services.status).toBe(200)
      expect(services.cache).toBe('STALE')
      const uncached = await cacheOf(site, '/blog/what-riding-taught-me-about-pacing')
      expect(uncached.status).toBe(503)
      expect(uncached.response.headers.get('retry-after')).toBe('5')
      // The site process is still up and ready: it serves what it holds.
      expect((await get(site, '/readyz')).status).toBe(200)
    }
  }, 30_000)
})
