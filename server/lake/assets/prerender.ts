import type {Lake} from '../lake.ts'
import type {Doc} from '../types.ts'
import type {ImageVariants} from './images.ts'

/**
 * The image URLs the site will ask for a published document (`before`: null when it is new),
 * which are rendered ahead. The lake does not know the site's documents or its URL rules: the
 * wiring hands this in (LakeRoutesConfig.prerenderUrls, server/siteForLake.ts).
 */
export type PrerenderUrls = (after: Doc, before: Doc | null) => string[]

/**
 * The `Accept` of the browsers the site's readers use (every current one takes AVIF): the
 * format `auto=format` gives them is the one rendered ahead.
 */
const readersAccept = 'image/avif,image/webp,*/*'

const isPublished = (id: string) => !id.startsWith('drafts.') && !id.startsWith('versions.')

/**
 * Pre-rendering (issue 22): a reader's first visit to a new post must not wait for its cover's
 * transforms (a cold 12 MP cover cost the post's LCP a few hundred ms). So when an image is
 * uploaded, its uncropped column widths are rendered, and when a post is published, every
 * variant its page, its card and its share card ask for (`urlsOf`, the site's rules):
 * in the background, at low priority (transformQueue.ts `runInBackground`), into the memory and
 * disk caches. What is cached already costs a lookup. Returns the unsubscribe function.
 */
export function prerenderOnPublish(
  lake: Lake,
  variants: ImageVariants,
  urlsOf: PrerenderUrls,
): () => void {
  return lake.onCommit((tx) => {
    for (const {id, before, after} of tx.changes) {
      if (!after || !isPublished(id)) continue
      for (const url of urlsOf(after, before)) variants.warm(url, readersAccept)
    }
  })
}
