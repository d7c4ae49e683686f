import {apiVersion} from '../shared/constants.ts'
import {
  isShown,
  localImageBuilder,
  siteVariantUrls,
  type PostImage,
  type ShownImage,
} from '../shared/imageUrl.ts'
import {searchQuery} from '../shared/siteQueries.ts'
import type {Doc, PrerenderUrls, WarmQuery} from './lake/index.ts'
import {isRecord} from './util/isRecord.ts'

/**
 * What the lake is told of the site it serves; it knows no site itself
 * (test/repo/layering.test.ts). The wiring (server/start.ts, server/app.ts) hands these in.
 */

/**
 * The site's search, which each query worker prepares ahead (the lake's `warmQuery`): the
 * anonymous reader's view at the site's API version, asked with `*`, which matches every post,
 * the widest path through the filter, the scoring and the page.
 */
export const siteSearchWarmQuery: WarmQuery = {
  query: searchQuery,
  params: {q: '*', start: 0, end: 6},
  apiVersion,
}

/** An image as stored (its asset a reference) in the shape the site's queries give it. */
function shownImage(value: unknown): ShownImage | undefined {
  if (!isRecord(value) || !isRecord(value.asset)) return undefined
  const ref = value.asset._ref
  if (typeof ref !== 'string' || !ref.startsWith('image-')) return undefined
  const image: PostImage = {
    asset: {_id: ref},
    crop: isRecord(value.crop) ? value.crop : null,
    hotspot: isRecord(value.hotspot) ? value.hotspot : null,
  }
  return isShown(image) ? image : undefined
}

/** The variants the site will ask for a published post: its cover's and its body images'. */
function postVariantUrls(post: Doc, builder: ReturnType<typeof localImageBuilder>): string[] {
  const urls: string[] = []
  const cover = shownImage(post.mainImage)
  if (cover) urls.push(...siteVariantUrls(builder, cover, 'cover'))
  const body = Array.isArray(post.body) ? post.body : []
  for (const block of body) {
    const image = isRecord(block) && block._type === 'image' ? shownImage(block) : undefined
    if (image) urls.push(...siteVariantUrls(builder, image, 'body'))
  }
  return urls
}

/**
 * The image variants the lake renders ahead (its `prerenderUrls`, issue 22): a new upload's
 * uncropped column widths, and every variant a published post's page, card and share card ask
 * for (shared/imageUrl.ts `siteVariantUrls`).
 */
export function sitePrerenderUrls(project: {projectId: string; dataset: string}): PrerenderUrls {
  const builder = localImageBuilder(project)
  return (after, before) => {
    if (after._type === 'sanity.imageAsset' && !before) {
      const image = shownImage({asset: {_ref: after._id}})
      return image ? siteVariantUrls(builder, image, 'body') : []
    }
    return after._type === 'post' ? postVariantUrls(after, builder) : []
  }
}
