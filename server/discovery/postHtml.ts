import {escapeHTML, toHTML, type PortableTextMarkComponent} from '@portabletext/to-html'
import type {PostBody} from './content.ts'

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

/**
 * A post's Portable Text as HTML for a feed entry: every block and mark of the schema, links
 * made absolute (feed readers have no page to resolve them against) and unsafe ones rendered
 * as their plain text. Types outside the schema render nothing.
 */
export function postBodyHtml(body: PostBody | null | undefined, postUrl: string): string {
  if (!Array.isArray(body) || body.length === 0) return ''
  const link: PortableTextMarkComponent<{_type: 'link'; href?: unknown}> = ({children, value}) => {
    const href = followableHref(value?.href, postUrl)
    return href ? `<a href="${escapeHTML(href)}">${children}</a>` : children
  }
  return toHTML(body, {
    components: {
      marks: {link, underline: ({children}) => `<u>${children}</u>`},
      unknownType: () => '',
    },
    onMissingComponent: false,
  })
}
