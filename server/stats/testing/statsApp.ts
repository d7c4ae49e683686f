import {Hono} from 'hono'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import type {AppContext} from '../../context.ts'
import {readConfig} from '../../env.ts'
import {truncateAddress} from '../../http/clientAddress.ts'
import {errorResponse} from '../../http/errorResponse.ts'
import {markSitePage} from '../../http/sitePages.ts'
import {ContentEvents} from '../../live/contentEvents.ts'
import {mountStats, type Stats} from '../feature.ts'
import type {Table} from '../tables.ts'
import {post} from '../testing.ts'

/** The pages the stand-in site answers 200 (anything else is its 404 page). */
const sitePages = new Set(['/', '/blog', '/contact', '/services', post])

export interface StatsApp {
  app: Hono
  stats: Stats
  /** The lake the tables' titles and the newsletter's documents are read from, over HTTP. */
  lake: LakeUnderTest
  /** A request as a reader's browser sends it, from `X-Forwarded-For`'s address. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** A table as the owner reads it (`/api/stats/<name>.json?…`). */
  table(name: string, query?: string): Promise<Table>
  stop(): Promise<void>
}

/**
 * Reader statistics in process (request in, response out), mounted as server/app.ts mounts them
 * in front of a stand-in site that answers as the site handler does (`X-Cache` and the page mark, an ETag, a 404
 * page), on a real seeded lake served over HTTP (the posts' titles). `env` is the server's.
 */
export async function startStatsApp(
  env: Record<string, string> = {},
  options: {now?: () => number; dataDir?: string} = {},
): Promise<StatsApp> {
  const lake = await startLakeUnderTest({seed: true})
  const config = readConfig({
    SITE_URL: 'http://localhost:3000',
    DATA_DIR: options.dataDir ?? lake.dataDir,
    ...env,
  })
  const hosted = config.hostedProjectId !== undefined || config.lakeUrl !== undefined
  const ctx: AppContext = {
    config,
    lake: hosted ? undefined : lake.lake,
    internalOrigin: () => lake.url,
    contentOrigin: () => lake.url,
    contentHeaders: () => ({}),
    contentEvents: new ContentEvents(),
  }
  const app = new Hono()
  app.onError(errorResponse)
  app.use(async (c, next) => {
    const address = c.req.header('x-forwarded-for') ?? '127.0.0.1'
    c.set('client', {key: truncateAddress(address), secure: false})
    await next()
  })
  const stats = mountStats(app, ctx, options)
  app.get('*', (c) => {
    const found = sitePages.has(c.req.path)
    const etag = `"${c.req.path.length}"`
    c.header('X-Cache', 'MISS')
    if (found) c.header('ETag', etag)
    const response =
      found && c.req.header('if-none-match') === etag
        ? c.body(null, 304)
        : c.html(found ? '<h1>A page</h1>' : '<h1>Not found</h1>', found ? 200 : 404)
    // Marked as the site handler marks its pages (server/http/sitePages.ts), and handed to the
    // counting as the site's route hands them (server/render/feature.ts).
    stats.countPage?.(c, markSitePage(response))
    return response
  })
  return {
    app,
    stats,
    lake,
    request: async (path, init) => app.request(path, init),
    async table(name, query = 'days=2') {
      const response = await app.request(`/api/stats/${name}.json?${query}`, {
        headers: {authorization: `Bearer ${lake.token}`},
      })
      if (response.status !== 200)
        throw new Error(`${name}: ${response.status} ${await response.text()}`)
      const table: Table = await response.json()
      return table
    },
    async stop() {
      await stats.close?.()
      await lake.stop()
    },
  }
}
