import type {Context, Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {CachedBody} from '../http/cachedBody.ts'
import {GeneratedCache, hostedTtlMs} from './cache.ts'
import {clientSource, type DiscoverySource} from './content.ts'
import {coverSizes} from './coverSizes.ts'
import {feedSize, renderFeed} from './feeds.ts'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import {buildRobots} from './robots.ts'
import {buildSitemap} from './sitemap.ts'

export interface DiscoveryOptions {
  /** Where the content comes from; by default @sanity/client as the site reads it. */
  source?: DiscoverySource
  /** Injected clock for the hosted-mode TTL, for tests. */
  now?: () => number
}

/** A generated file, compressed and hashed once per build: a 10k-post sitemap is ~1.2 MB raw. */
function generated(text: string): CachedBody {
  return new CachedBody(Buffer.from(text))
}

/**
 * Serves a generated file with its ETag, so feed readers and crawlers that revalidate get a
 * 304. Browsers and proxies may keep it a minute; our own cache is what stays exact.
 */
function send(c: Context, body: CachedBody, type: string): Response {
  const request = {
    acceptEncoding: c.req.header('accept-encoding'),
    ifNoneMatch: c.req.header('if-none-match'),
  }
  return body.respond(request, 200, {'content-type': type, 'cache-control': 'public, max-age=60'})
}

/**
 * /sitemap.xml, /robots.txt, /rss.xml and /atom.xml (issue #6). The generated documents are
 * cached and dropped by the content store's live events (server/live/contentEvents.ts), as the
 * rendered pages are, in every mode: every message drops them (they list every post), and so
 * does a reset or the events coming back. While the events do not flow they expire after
 * `hostedTtlMs`, a fallback only. SITE_URL is read per request (it is known only after listen)
 * and is part of the cache key.
 */
export function mountDiscovery(
  app: Hono,
  ctx: AppContext,
  options: DiscoveryOptions = {},
): Feature {
  const source = options.source ?? clientSource(ctx)
  const events = ctx.contentEvents
  const cache = new GeneratedCache<CachedBody>({
    ttlMs: () => (events.live ? undefined : hostedTtlMs),
    now: options.now,
  })
  // Anonymous streams carry no draft-only commits, so the Studio's autosaves drop nothing here.
  const unsubscribe = [
    events.onChange(() => cache.invalidate()),
    events.onState((state) => {
      if (state === 'live') cache.invalidate()
    }),
  ]

  // Image URLs in feeds follow the site's mode: this lake's /images or cdn.sanity.io.
  const feedSite = (siteUrl: string) =>
    resolveSiteConfig({hostedProjectId: ctx.config.hostedProjectId, siteUrl})
  const serve = (name: string, type: string, build: (siteUrl: string) => Promise<string>) =>
    app.get(name, async (c) => {
      const siteUrl = ctx.config.siteUrl
      // A commit of this process's own lake not yet through the stream: build afresh.
      const upToDate = events.upToDate()
      if (upToDate !== true && !(await upToDate)) cache.invalidate()
      try {
        return send(
          c,
          await cache.get(`${name} ${siteUrl}`, async () => generated(await build(siteUrl))),
          type,
        )
      } catch (error) {
        console.error(`[discovery] ${name} could not be built`, error)
        return c.text('Temporarily unavailable, please retry shortly.', 503, {'retry-after': '30'})
      }
    })

  serve('/sitemap.xml', 'application/xml; charset=utf-8', async (siteUrl) =>
    buildSitemap(await source.sitemapPosts(), siteUrl),
  )
  const feed = (format: 'rss' | 'atom') => async (siteUrl: string) => {
    const posts = await source.feedPosts(feedSize)
    const config = feedSite(siteUrl)
    const sizes = await coverSizes(posts, config, (url) => source.byteLength(url))
    return renderFeed(posts, config, format, undefined, sizes)
  }
  serve('/rss.xml', 'application/rss+xml; charset=utf-8', feed('rss'))
  serve('/atom.xml', 'application/atom+xml; charset=utf-8', feed('atom'))
  app.get('/robots.txt', (c) =>
    send(c, generated(buildRobots(ctx.config.siteUrl)), 'text/plain; charset=utf-8'),
  )

  return {
    close: () => {
      for (const stop of unsubscribe) stop()
    },
  }
}
