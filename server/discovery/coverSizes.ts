import {isShown, shareImageUrl} from '../../shared/imageUrl.ts'
import type {SiteConfig} from '../../shared/siteConfig.ts'
import type {AppContext} from '../context.ts'
import type {FeedPost} from './content.ts'

/** A cover variant that takes longer than this is left out of the feed rather than wait. */
const coverTimeoutMs = 10_000

/** The feed's enclosure for a post's cover: the share card's crop, as JPEG (feeds.ts). */
export function coverEnclosureUrl(config: SiteConfig, post: FeedPost): string | undefined {
  return isShown(post.mainImage) ? shareImageUrl(config, post.mainImage, 'cover.jpeg') : undefined
}

/**
 * The byte length of an image, by reading it as a feed reader would (issue #35: RSS 2.0
 * requires an enclosure's `length`, and the feed said `0`). An image under SITE_URL is this
 * site's own image route, asked of the content origin with the site's own credential; the
 * share card is rendered ahead when a post is published (server/lake/assets/prerender.ts), so
 * this is a cache read. Any other (hosted mode's CDN) is fetched as it is, with no credential.
 * Undefined when it cannot be read.
 */
export function imageByteLength(
  ctx: Pick<AppContext, 'config' | 'contentOrigin' | 'contentHeaders'>,
) {
  return async (url: string): Promise<number | undefined> => {
    const target = new URL(url)
    const own = target.origin === new URL(ctx.config.siteUrl).origin
    try {
      const res = await fetch(
        own ? new URL(target.pathname + target.search, ctx.contentOrigin()) : target,
        {
          headers: own ? ctx.contentHeaders() : {},
          signal: AbortSignal.timeout(coverTimeoutMs),
        },
      )
      if (!res.ok) {
        await res.body?.cancel()
        return undefined
      }
      return (await res.arrayBuffer()).byteLength
    } catch {
      return undefined
    }
  }
}

/** Each cover enclosure's byte length, by URL, read in parallel (a feed has at most 20 posts). */
export async function coverSizes(
  posts: FeedPost[],
  config: SiteConfig,
  byteLength: (url: string) => Promise<number | undefined>,
): Promise<Map<string, number>> {
  const urls = [...new Set(posts.map((post) => coverEnclosureUrl(config, post)))].filter(
    (url) => url !== undefined,
  )
  const sizes = new Map<string, number>()
  await Promise.all(
    urls.map(async (url) => {
      const length = await byteLength(url)
      if (length !== undefined) sizes.set(url, length)
      else console.warn(`[discovery] the cover ${url} could not be read: left out of the feed`)
    }),
  )
  return sizes
}
