import {createClient, type SanityClient} from '@sanity/client'
import {resolveSiteConfig, siteClientConfig} from '../../shared/siteConfig.ts'
import {feedPostsQuery, sitemapQuery} from '../../shared/siteQueries.ts'
import type {FeedPostsQueryResult, SitemapQueryResult} from '../../shared/sanity.types.ts'
import type {AppContext} from '../context.ts'
import {imageByteLength} from './imageByteLength.ts'

/** One sitemap entry and one feed item, as the queries return them (shared/sanity.types.ts). */
export type SitemapPost = SitemapQueryResult[number]
export type FeedPost = FeedPostsQueryResult[number]

/** What the discovery documents are built from; tests pass their own. */
export interface DiscoverySource {
  sitemapPosts(): Promise<SitemapPost[]>
  feedPosts(limit: number): Promise<FeedPost[]>
  /** An image's byte length (a feed enclosure's `length`), undefined if it cannot be read. */
  byteLength(url: string): Promise<number | undefined>
}

/**
 * Reads the content exactly as the public site does (shared/siteConfig.ts: no token, CDN, the local lake
 * over loopback, LAKE_URL, or the hosted project), plus the `published` perspective, so a draft
 * can never reach a feed or the sitemap whatever the API version's default. The lake's origin is known
 * only after listen, so the client is made on first use and remade if the origin changes.
 */
export function clientSource(ctx: AppContext): DiscoverySource {
  let client: SanityClient | undefined
  let clientOrigin: string | undefined
  const getClient = (): SanityClient => {
    const origin = ctx.contentOrigin()
    if (!client || origin !== clientOrigin) {
      clientOrigin = origin
      const site = resolveSiteConfig({
        hostedProjectId: ctx.config.hostedProjectId,
        siteUrl: ctx.config.siteUrl,
      })
      // The site's own credential: feeds and the sitemap are its own reads, not a visitor's.
      client = createClient({
        ...siteClientConfig(site, origin, ctx.contentHeaders()),
        perspective: 'published',
      })
    }
    return client
  }
  return {
    sitemapPosts: () => getClient().fetch(sitemapQuery),
    feedPosts: (limit) => getClient().fetch(feedPostsQuery, {limit}),
    byteLength: imageByteLength(ctx),
  }
}
