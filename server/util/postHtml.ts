import {escapeHTML, toHTML, type PortableTextMarkComponent} from '@portabletext/to-html'
import type {ImageUrlBuilder} from '@sanity/image-url'
import {altOf, croppedSize, isShown, type PostImage} from '../../shared/imageUrl.ts'
import type {PortableTextBlock} from '@portabletext/react'

/** A body as stored: the schema's blocks, though the lake may hold other typed objects too. */
export type PostBody = Array<
  PortableTextBlock | {_type: string; _key?: string; [field: string]: unknown}
>

/** Schemes a reader may follow from a feed, as on the site (schemas/objects/blockContent.ts). */
const followable = new Set(['http:', 'https:', 'mailto:'])

/**
 * The absolute address `href` points to when read on the page at `base`, or undefined when it
 * is not http(s), mailto or relative (e.g. `javascript:`, `data:`). The WHATWG URL parser is
 * the judge, so tricks like leading spaces or mixed case in the scheme resolve as a browser
 * would resolve them.
 */
export function followableHref(href: unknown, base: string): string | undefined {
  if (typeof href !== 'string' || href.trim() === '') return undefined
  let url: URL
  try {
    url = new URL(href, base)
  } catch {
    return undefined
  }
  return followable.has(url.protocol) ? url.href : undefined
}

/** How wide a feed's body images are: feed readers show one column, about this wide. */
export const feedImageWidth = 960

/**
 * A body image for a feed reader: a `<figure>` with an absolute `<img>` (`images` builds
 * absolute URLs, web/images/imageUrl.ts), its size and alt, and the caption. The source format
 * is kept (no `auto=format`): readers fetch it without a browser's Accept header.
 */
function figureHtml(image: PostImage, images: ImageUrlBuilder): string {
  if (!isShown(image)) return ''
  const crop = croppedSize(image)
  const width = Math.min(feedImageWidth, crop.width)
  const height = Math.round((width * crop.height) / crop.width)
  const src = images.image(image).width(width).fit('max').url()
  const caption = image.caption ? `<figcaption>${escapeHTML(image.caption)}</figcaption>` : ''
  return `<figure><img src="${escapeHTML(src)}" alt="${escapeHTML(altOf(image))}" width="${width}" height="${height}">${caption}</figure>`
}

/**
 * A post's Portable Text as HTML for a feed entry: every block and mark of the schema, links
 * made absolute (feed readers have no page to resolve them against) and unsafe ones rendered
 * as their plain text, images as absolute `<img>`. Types outside the schema render nothing.
 */
export function postBodyHtml(
  body: PostBody | null | undefined,
  postUrl: string,
  images?: ImageUrlBuilder,
): string {
  if (!Array.isArray(body) || body.length === 0) return ''
  const link: PortableTextMarkComponent<{_type: 'link'; href?: unknown}> = ({children, value}) => {
    const href = followableHref(value?.href, postUrl)
    return href ? `<a href="${escapeHTML(href)}">${children}</a>` : children
  }
  return toHTML(body, {
    components: {
      marks: {link, underline: ({children}) => `<u>${children}</u>`},
      types: {
        image: ({value}: {value: PostImage}) => (images ? figureHtml(value, images) : ''),
      },
      unknownType: () => '',
    },
    onMissingComponent: false,
  })
}
