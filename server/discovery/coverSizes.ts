import {isShown, shareImageUrl} from '../../shared/imageUrl.ts'
import type {SiteConfig} from '../../shared/siteConfig.ts'
import type {FeedPost} from './content.ts'

/** The feed's enclosure for a post's cover: the share card's crop, as JPEG (feeds.ts). */
export function coverEnclosureUrl(config: SiteConfig, post: FeedPost): string | undefined {
  return isShown(post.mainImage) ? shareImageUrl(config, post.mainImage, 'cover.jpeg') : undefined
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
