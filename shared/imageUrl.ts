import {createImageUrlBuilder, type ImageUrlBuilder} from '@sanity/image-url'
import type {SiteConfig} from './siteConfig.ts'

/**
 * The one place image URLs are built, in both modes and on server and browser alike (issue 22):
 * `@sanity/image-url` turns the Studio's crop and hotspot into `rect`/`w`/`h` itself. Local mode
 * points it at this site's lake (`/images/…`, server/lake/assets/images.ts); hosted mode at
 * `cdn.sanity.io`. Nothing else concatenates an image address.
 */

/** An image as the site's queries select it (web/queries.ts `imageFields`). */
export interface PostImage {
  asset?: {
    _id: string
    metadata?: {lqip?: string | null; isOpaque?: boolean | null} | null
  } | null
  crop?: {top?: number; bottom?: number; left?: number; right?: number} | null
  hotspot?: {x?: number; y?: number; width?: number; height?: number} | null
  alt?: string | null
  decorative?: boolean | null
  caption?: string | null
}

/** An image that has an asset: the only kind that is drawn. */
export type ShownImage = PostImage & {asset: NonNullable<PostImage['asset']>}

export const isShown = (image: PostImage | null | undefined): image is ShownImage =>
  Boolean(image?.asset?._id)

/**
 * A builder for `site`. `absolute` addresses (share cards, feeds) start with SITE_URL in local
 * mode; pages use root-relative ones so any allowed host serves them.
 */
export function imageBuilder(site: SiteConfig, absolute = false): ImageUrlBuilder {
  const base = {projectId: site.projectId, dataset: site.dataset}
  if (site.mode === 'hosted') return createImageUrlBuilder(base)
  if (!absolute) return localImageBuilder(base)
  return createImageUrlBuilder({...base, baseUrl: site.siteUrl})
}

/** Root-relative `/images/…` addresses on the local lake, as the site's pages use them. */
export function localImageBuilder(base: {projectId: string; dataset: string}): ImageUrlBuilder {
  // image-url strips trailing slashes, so '/' yields root-relative `/images/…`.
  return createImageUrlBuilder({...base, baseUrl: '/'})
}

/** Width and height of the asset, upright, from its id (`image-<sha1>-<w>x<h>-<ext>`). */
export function assetSize(assetId: string): {width: number; height: number} {
  const match = /-(\d+)x(\d+)-[a-z]+$/.exec(assetId)
  if (!match) throw new Error(`Not an image asset id: ${assetId}`)
  return {width: Number(match[1]), height: Number(match[2])}
}

/** The size of the Studio's crop, rounded as image-url rounds its `rect`. */
export function croppedSize(image: ShownImage): {width: number; height: number} {
  const {width, height} = assetSize(image.asset._id)
  const crop = {top: 0, bottom: 0, left: 0, right: 0, ...image.crop}
  const left = Math.round(crop.left * width)
  const top = Math.round(crop.top * height)
  return {
    width: Math.round(width - crop.right * width - left),
    height: Math.round(height - crop.bottom * height - top),
  }
}

/** The `alt` text to write: empty for a decorative image, the owner's text otherwise. */
export const altOf = (image: PostImage): string => (image.decorative ? '' : (image.alt ?? ''))

/** The shape of every card's thumbnail (web/images/CardThumbnail.tsx). */
export const thumbnailAspect = 16 / 9
/** The `src` width (for browsers without `srcset`) of images in the post column, and of thumbnails. */
export const columnDefaultWidth = 720
export const thumbnailDefaultWidth = 480

/** At most this many `srcset` candidates: enough for phones to desktops at 1–3× density. */
const candidateWidths = [480, 720, 960, 1280, 1600]

export interface ResponsiveImage {
  src: string
  srcSet: string
  /** Every candidate's address, narrowest first (`src` is one of them). */
  candidates: string[]
  width: number
  height: number
}

/**
 * `src`, `srcset` and intrinsic size for an image shown at most `maxWidth` CSS px wide, with its
 * crop's aspect ratio, or `aspect` (width / height) when given: then cropped around the hotspot.
 * No candidate is wider than the crop (no upscaling); the browser picks by `sizes`. `auto=format`
 * serves WebP to browsers that take it, as Sanity's CDN does.
 */
export function responsiveImage(
  builder: ImageUrlBuilder,
  image: ShownImage,
  options: {aspect?: number; defaultWidth: number},
): ResponsiveImage {
  const crop = croppedSize(image)
  const aspect = options.aspect ?? crop.width / crop.height
  // The widest the crop allows at this aspect ratio.
  const widest = Math.min(crop.width, Math.floor(crop.height * aspect))
  const widths = candidateWidths.filter((width) => width < widest)
  if (widths.length < candidateWidths.length) widths.push(widest)
  const url = (width: number) => {
    const height = Math.round(width / aspect)
    const sized = options.aspect
      ? builder.image(image).width(width).height(height).fit('crop')
      : builder.image(image).width(width).fit('max')
    return sized.auto('format').url()
  }
  const fallback = widths.find((width) => width >= options.defaultWidth) ?? widest
  return {
    src: url(fallback),
    srcSet: widths.map((width) => `${url(width)} ${width}w`).join(', '),
    candidates: widths.map(url),
    width: fallback,
    height: Math.round(fallback / aspect),
  }
}

/** The share card's size: what Open Graph readers and X show large. */
export const shareSize = {width: 1200, height: 630}

/**
 * The share card (`og:image`): the cover cropped to 1200×630 around its hotspot, as JPEG, which
 * every link-preview reader takes. Absolute, as Open Graph requires. `vanityName` adds a file
 * name to the path (`…/cover.jpeg`), for readers that take the type from the name (Atom's
 * enclosure link does, in the feed package).
 */
export function shareImageUrl(site: SiteConfig, image: ShownImage, vanityName?: string): string {
  return shareImage(imageBuilder(site, true), image, vanityName)
}

function shareImage(builder: ImageUrlBuilder, image: ShownImage, vanityName?: string): string {
  const built = builder.image(image)
  return (vanityName ? built.vanityName(vanityName) : built)
    .width(shareSize.width)
    .height(shareSize.height)
    .fit('crop')
    .format('jpg')
    .quality(80)
    .url()
}

/**
 * Every variant the site asks for, for one image: in a post's body, its column `srcset`; as a
 * post's cover, that, its card's thumbnail `srcset` and its share card. The lake renders these
 * ahead of the first reader (server/lake/assets/prerender.ts); `builder` is the one the pages use.
 */
export function siteVariantUrls(
  builder: ImageUrlBuilder,
  image: ShownImage,
  role: 'cover' | 'body',
): string[] {
  const column = responsiveImage(builder, image, {defaultWidth: columnDefaultWidth})
  if (role === 'body') return column.candidates
  const card = responsiveImage(builder, image, {
    aspect: thumbnailAspect,
    defaultWidth: thumbnailDefaultWidth,
  })
  return [...column.candidates, ...card.candidates, shareImage(builder, image)]
}
