import {createClient, type SanityClient} from '@sanity/client'
import {resolveSiteConfig, siteClientConfig} from '../../shared/siteConfig.ts'
import {postTitlesQuery} from '../../shared/siteQueries.ts'
import {postPath} from '../../shared/siteUrls.ts'
import type {AppContext} from '../context.ts'

/**
 * The posts' titles by page path, read as the site reads content (published only, the site's
 * own credential), for the pages table. The client is made on first use: the lake's origin is
 * known only after listen.
 */
export function postTitles(ctx: AppContext): () => Promise<Map<string, string>> {
  let client: SanityClient | undefined
  return async () => {
    const site = resolveSiteConfig({
      hostedProjectId: ctx.config.hostedProjectId,
      siteUrl: ctx.config.siteUrl,
    })
    client ??= createClient({
      ...siteClientConfig(site, ctx.contentOrigin(), ctx.contentHeaders()),
      perspective: 'published',
    })
    const posts = await client.fetch(postTitlesQuery)
    const titles = new Map<string, string>()
    for (const post of posts)
      if (post.slug && post.title) titles.set(postPath(post.slug), post.title)
    return titles
  }
}
