import {createClient, type SanityClient} from '@sanity/client'
import type {PortableTextBlock} from '@portabletext/types'
import type {AppContext} from '../context.ts'
import {siteApiVersion} from '../env.ts'
import {feedPostsQuery, sitemapQuery} from './queries.ts'

/** A body as stored: the schema's blocks, though the lake may hold other typed objects too. */
export type PostBody = Array<PortableTextBlock | {_type: string; _key?: string; [field: string]: unknown}>

export interface SitemapPost {
  slug: string
  _updatedAt: string
}

export interface FeedPost {
  _id: string
  title: string | null
  slug: string
  /** YYYY-MM-DD */
  date: string | null
  excerpt: string | null
  category: string | null
  body: PostBody | null
  _updatedAt: string
}

/** What the discovery documents are built from; tests pass their own. */
export interface DiscoverySource {
  sitemapPosts(): Promise<SitemapPost[]>
  feedPosts(limit: number): Promise<FeedPost[]>
}

/**
 * Reads the content the way the public site does: @sanity/client, no token, published
 * perspective, so drafts can never reach a feed or the sitemap. Locally it talks to this
 * process's own lake over loopback (its origin is known only after listen, hence per call);
 * in hosted mode to the project's API CDN.
 */
export function clientSource(ctx: AppContext): DiscoverySource {
  let client: SanityClient | undefined
  let clientOrigin = ''
  const getClient = (): SanityClient => {
    const hosted = ctx.config.hostedProjectId
    const origin = hosted ? '' : ctx.internalOrigin()
    if (!client || origin !== clientOrigin) {
      clientOrigin = origin
      client = createClient({
        projectId: ctx.config.projectId,
        dataset: ctx.config.dataset,
        apiVersion: siteApiVersion,
        perspective: 'published',
        useCdn: true,
        ...(hosted ? {} : {apiHost: origin, useProjectHostname: false}),
      })
    }
    return client
  }
  return {
    sitemapPosts: () => getClient().fetch<SitemapPost[]>(sitemapQuery),
    feedPosts: (limit) => getClient().fetch<FeedPost[]>(feedPostsQuery, {limit}),
  }
}
