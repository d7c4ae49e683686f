import type {AppContext} from '../context.ts'

/** A cover variant that takes longer than this is left out of the feed rather than wait. */
const coverTimeoutMs = 10_000

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
