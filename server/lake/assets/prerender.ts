import {
  isShown,
  localImageBuilder,
  siteVariantUrls,
  type PostImage,
  type ShownImage,
} from '../../../shared/imageUrl.ts'
import {isRecord} from '../../util/isRecord.ts'
import type {Lake} from '../lake.ts'
import type {Doc} from '../types.ts'
import type {ImageVariants} from './images.ts'

/**
 * The `Accept` of the browsers the site's readers use (every current one takes AVIF): the
 * format `auto=format` gives them is the one rendered ahead.
 */
const readersAccept = 'image/avif,image/webp,*/*'

const isPublished = (id: string) => !id.startsWith('drafts.') && !id.startsWith('versions.')

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
 * Pre-rendering (issue 22): a reader's first visit to a new post must not wait for its cover's
 * transforms (a cold 12 MP cover cost the post's LCP a few hundred ms). So when an image is
 * uploaded, its uncropped column widths are rendered, and when a post is published, every
 * variant its page, its card and its share card ask for (shared/imageUrl.ts `siteVariantUrls`):
 * in the background, at low priority (transformQueue.ts `runInBackground`), into the memory and
 * disk caches. What is cached already costs a lookup. Returns the unsubscribe function.
 */
export function prerenderOnPublish(lake: Lake, variants: ImageVariants): () => void {
  const builder = localImageBuilder({projectId: lake.projectId, dataset: lake.dataset})
  return lake.onCommit((tx) => {
    for (const {id, before, after} of tx.changes) {
      if (!after || !isPublished(id)) continue
      let urls: string[] = []
      if (after._type === 'sanity.imageAsset' && !before) {
        const image = shownImage({asset: {_ref: id}})
        if (image) urls = siteVariantUrls(builder, image, 'body')
      } else if (after._type === 'post') urls = postVariantUrls(after, builder)
      for (const url of urls) variants.warm(url, readersAccept)
    }
  })
}
