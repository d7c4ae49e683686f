import {mkdirSync} from 'node:fs'
import type {Context, Hono, MiddlewareHandler} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {Flusher} from './flusher.ts'
import {countReaders, type CountingOptions} from './middleware.ts'
import {registerBeacon} from './beacon.ts'
import {isOwnerView} from './ownerView.ts'
import {registerStatsRoutes} from './routes.ts'
import {DailySalt} from './salt.ts'
import {StatsStore} from './store.ts'
import {readTable} from './tables.ts'
import {Tally} from './tally.ts'
import {postTitles} from './titles.ts'

/** Seams for tests; the server passes none. */
export interface StatsOptions {
  now?: () => number
}

/** Reader statistics, mounted by server/app.ts: the counting in front of the site, and the tables. */
export interface Stats extends Feature {
  /** Mounted just before the site (undefined with ANALYTICS=0 or without a site). */
  counting: MiddlewareHandler | undefined
}

/**
 * First-party reader statistics (docs/reader-statistics.md): page views counted where they are
 * served, kept as aggregated rows in DATA_DIR/stats.sqlite (the single process, a content process,
 * hosted mode), shown to the owner by `/api/stats/…`. `ANALYTICS=0` counts nothing.
 */
export function mountStats(app: Hono, ctx: AppContext, options: StatsOptions = {}): Stats {
  const now = options.now ?? Date.now
  const {config} = ctx
  mkdirSync(config.dataDir, {recursive: true, mode: 0o700})
  const store = new StatsStore(config.dataDir)
  const tally = new Tally()
  const flusher = new Flusher(tally, (batch) => store.merge(batch))
  const titles = cached(postTitles(ctx), 60_000, now)
  registerStatsRoutes(app, {
    verify: (token) => ctx.lake?.verifyToken(token),
    attempts: ctx.lake?.failedTokenAttempts(),
    flush: () => flusher.flush(),
    table: async (name, days) =>
      readTable(store.db, name, days, now(), name === 'pages' ? await titles() : undefined),
    live: () => tally.liveVisitors(now()),
  })
  const ownHosts = (c: Context) =>
    new Set(
      [
        new URL(config.siteUrl).hostname,
        c.req.header('host')?.replace(/:\d+$/, '') ?? '',
        ...config.allowedHosts,
      ]
        .map((host) => host.toLowerCase())
        .filter(Boolean),
    )
  const counting: CountingOptions = {
    tally,
    salt: new DailySalt(),
    isOwner: (c) => isOwnerView(c, config),
    ownHosts,
    now,
  }
  const enabled = config.analytics && config.serveSite
  if (enabled)
    registerBeacon(app, {...counting, postPaths: async () => new Set((await titles()).keys())})
  return {
    counting: enabled ? countReaders(counting) : undefined,
    async close() {
      await flusher.stop()
      store.close()
    },
  }
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
