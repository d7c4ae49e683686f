/**
 * Scale-out (issue #23): one content process (SERVE_SITE=0) and two site processes (LAKE_URL) on
 * loopback, each `node server/main.ts`. 20 publishes through @sanity/client: the time until both
 * sites show the new title, and how many of the pages a site held each publish dropped.
 */
import {randomBytes} from 'node:crypto'
import {createClient} from '@sanity/client'
import {apiVersion, defaultDataset, localProjectId} from '../shared/constants.ts'
import {startServerProcess, type ServerProcess} from './serverProcess.ts'
import {fmt, spread} from './stats.ts'
import type {Table} from './types.ts'

const publishes = 20
const pollMs = 5
const freshWithinMs = 5_000
/** The pages each site holds: the query-free ones and the blog's, ten posts among them. */
const fixedPages = ['/', '/blog', '/services', '/testimonials', '/contact']

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
  return false
}

const page = async (site: ServerProcess, path: string) => {
  const response = await fetch(`${site.url}${path}`)
  return {cache: response.headers.get('x-cache'), html: await response.text()}
}

export interface ScaleOutMeasured {
  freshMs: number[]
  dropped: number[]
  cached: number
  missed: number
}

export async function measureScaleOut(): Promise<{
  tables: Table[]
  notes: string[]
  data: ScaleOutMeasured
}> {
  const token = randomBytes(24).toString('base64url')
  const siteReadToken = randomBytes(24).toString('base64url')
  const content = await startServerProcess({
    env: {SERVE_SITE: '0', LAKE_TOKEN: token, SITE_READ_TOKEN: siteReadToken},
  })
  const sites: ServerProcess[] = []
  try {
    for (let i = 0; i < 2; i++)
      sites.push(
        await startServerProcess({
          env: {LAKE_URL: content.url, SITE_READ_TOKEN: siteReadToken, HTTPS_PORT: 'off'},
        }),
      )
    for (const site of sites)
      await waitUntil(async () => (await fetch(`${site.url}/readyz`)).ok, 20_000)
    const owner = createClient({
      projectId: localProjectId,
      dataset: defaultDataset,
      apiVersion,
      apiHost: content.url,
      useProjectHostname: false,
      useCdn: false,
      token,
    })
    const posts = await owner.fetch<Array<{_id: string; slug: string}>>(
      '*[_type == "post" && defined(slug.current)] | order(date desc) [0...10] {_id, "slug": slug.current}',
    )
    const pages = [...fixedPages, ...posts.map((post) => `/blog/${post.slug}`)]
    const warm = async (site: ServerProcess) => {
      for (const path of pages) await page(site, path)
    }
    for (const site of sites) await warm(site)

    const freshMs: number[] = []
    const dropped: number[] = []
    let missed = 0
    for (let i = 0; i < publishes; i++) {
      const post = posts[i % posts.length]
      const title = `Scale-out publish ${i}, ${randomBytes(4).toString('hex')}`
      const started = performance.now()
      await owner.patch(post._id).set({title}).commit()
      const fresh = await waitUntil(
        async () =>
          (await Promise.all(sites.map((site) => page(site, `/blog/${post.slug}`)))).every((p) =>
            p.html.includes(title),
          ),
        freshWithinMs,
      )
      if (fresh) freshMs.push(performance.now() - started)
      else missed++
      // Which of the pages the first site held this publish dropped (asking re-warms them).
      let misses = 0
      for (const path of pages) if ((await page(sites[0], path)).cache === 'MISS') misses++
      // The post's own page was already re-rendered by the freshness poll.
      dropped.push(misses + 1)
      await warm(sites[1])
    }
    const fresh = spread(freshMs)
    const drop = spread(dropped)
    const tables: Table[] = [
      {
        title: `Scale-out: publish → both of 2 site processes fresh (${publishes} publishes, polled every ${pollMs} ms)`,
        columns: ['median ms', 'min ms', 'max ms', 'missed (> 5 s)'],
        rows: [[fmt(fresh.median), fmt(fresh.min), fmt(fresh.max), missed]],
      },
      {
        title: 'Scale-out: pages dropped per publish, of the pages a site held',
        columns: ['pages held', 'dropped (median)', 'dropped (max)'],
        rows: [[pages.length, drop.median, drop.max]],
      },
    ]
    const notes = [
      `Publish → fresh on both site processes: median ${fmt(fresh.median)} ms, max ${fmt(fresh.max)} ms over ${freshMs.length} publishes${missed ? ` (${missed} not fresh within 5 s)` : ''}.`,
      `Each publish dropped ${drop.median} of the ${pages.length} pages a site held: the local lake's tags are coarse (s1:public), so every page that queries content goes and the query-free ones stay.`,
    ]
    return {tables, notes, data: {freshMs, dropped, cached: pages.length, missed}}
  } finally {
    await Promise.all([...sites, content].map((process) => process.stop()))
  }
}
