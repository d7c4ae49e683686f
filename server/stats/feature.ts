import {mkdirSync} from 'node:fs'
import type {Context, Hono} from 'hono'
import type {PageObserver} from '../http/sitePages.ts'
import {requestHeader} from '../http/requestHeader.ts'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {Flusher} from './flusher.ts'
import {countFeedReaders, countPageViews, feedPaths, type CountingOptions} from './middleware.ts'
import {registerBeacon} from './beacon.ts'
import {isOwnerView} from './ownerView.ts'
import {registerStatsRoutes} from './routes.ts'
import {DailySalt} from './salt.ts'
import {StatsStore} from './store.ts'
import {readTable} from './tables.ts'
import {Tally, type Batch} from './tally.ts'
import {registerIngest} from './ingest.ts'
import {LiveReports} from './liveReports.ts'
import {remoteSink} from './sender.ts'
import {postTitles} from './titles.ts'
import {newsletterDatesQuery, newsletterTable, type NewsletterDates} from './newsletterTable.ts'

/** Seams for tests; the server passes none. */
export interface StatsOptions {
  now?: () => number
}

/** Reader statistics, mounted by server/app.ts: the counting in front of the site, and the tables. */
export interface Stats extends Feature {
  /** Handed each answer of the site's route (undefined with ANALYTICS=0 or without a site). */
  countPage: PageObserver | undefined
}

/**
 * First-party reader statistics (docs/reader-statistics.md): page views counted where they are
 * served, kept as aggregated rows in DATA_DIR/stats.sqlite (the single process, a content process,
 * hosted mode), shown to the owner by `/api/stats/…`. A site process (LAKE_URL) sends its batches
 * to the content process with STATS_TOKEN. `ANALYTICS=0` counts nothing.
 */
export function mountStats(app: Hono, ctx: AppContext, options: StatsOptions = {}): Stats {
  const now = options.now ?? Date.now
  const {config} = ctx
  const tally = new Tally()
  const titles = cached(postTitles(ctx), 60_000, now)
  // Kept where the data is; a site process (LAKE_URL) sends its batches there.
  const store = config.lakeUrl === undefined ? openStore(config.dataDir) : undefined
  const sink = store
    ? (batch: Batch) => store.merge(batch)
    : config.lakeUrl !== undefined && config.statsToken !== undefined
      ? remoteSink(config.lakeUrl, config.statsToken)
      : undefined
  const flusher = sink ? new Flusher(tally, sink, undefined, now) : undefined
  if (store && flusher) {
    const siteProcesses = new LiveReports()
    registerStatsRoutes(app, {
      verify: (token) => ctx.lake?.verifyToken(token),
      attempts: ctx.lake?.failedTokenAttempts(),
      flush: () => flusher.flush(),
      table: async (name, days, page) =>
        name === 'newsletter'
          ? newsletterTable(await newsletterDates(ctx), days, now())
          : readTable(
              store.db,
              name,
              days,
              now(),
              name === 'pages' ? await titles() : undefined,
              page,
            ),
      // This process's own readers, and the site processes' (split deployment).
      live: () => tally.liveVisitors(now()) + siteProcesses.visitors(now()),
    })
    registerIngest(app, config.statsToken, (batch) => {
      store.merge(batch)
      if (batch.live) siteProcesses.add(batch.live)
    })
  }
  if (!flusher && config.analytics)
    console.warn(
      '[stats] this site process has no STATS_TOKEN: it counts no readers (docs/deploy.md)',
    )
  // The same host header on nearly every request: its set is made again only when it differs.
  let own = {key: '', hosts: new Set<string>()}
  const ownHosts = (c: Context) => {
    const host = requestHeader(c, 'host')?.replace(/:\d+$/, '') ?? ''
    const key = `${config.siteUrl}\n${host}`
    if (key !== own.key) {
      const names = [new URL(config.siteUrl).hostname, host, ...config.allowedHosts]
      own = {key, hosts: new Set(names.map((name) => name.toLowerCase()).filter(Boolean))}
    }
    return own.hosts
  }
  const counting: CountingOptions = {
    tally,
    salt: new DailySalt(),
    isOwner: (c) => isOwnerView(c, config),
    ownHosts,
    now,
  }
  const enabled = config.analytics && config.serveSite && flusher !== undefined
  if (enabled) {
    registerBeacon(app, {...counting, postPaths: async () => new Set((await titles()).keys())})
    // Before the feeds' own routes (server/app.ts mounts the discovery feature after this one).
    const feeds = countFeedReaders(counting)
    for (const path of feedPaths) app.use(path, feeds)
  }
  return {
    countPage: enabled ? countPageViews(counting) : undefined,
    async close() {
      await flusher?.stop()
      store?.close()
    },
  }
}

/** The newsletter's dates, from the local lake's private documents (none in hosted mode). */
function newsletterDates(ctx: AppContext): Promise<NewsletterDates[]> {
  if (!ctx.lake) return Promise.resolve([])
  return ctx.lake.query<NewsletterDates[]>(newsletterDatesQuery, {}, {authenticated: true})
}

function openStore(dataDir: string): StatsStore {
  mkdirSync(dataDir, {recursive: true, mode: 0o700})
  return new StatsStore(dataDir)
}

/**
 * `load`'s answer, asked again only after `ttlMs` (or after a failure): the posts change seldom,
 * and a flood of beacons must not become a flood of queries.
 */
function cached<T>(load: () => Promise<T>, ttlMs: number, now: () => number): () => Promise<T> {
  let last: {at: number; value: Promise<T>} | undefined
  return () => {
    if (!last || now() - last.at > ttlMs) {
      const value = load()
      const entry = {at: now(), value}
      last = entry
      value.catch(() => {
        if (last === entry) last = undefined
      })
    }
    return last.value
  }
}
