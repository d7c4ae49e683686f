/** The embedded Studio's base path (sanity.config.ts `basePath`): overlays open fields there. */
export const studioBasePath = '/studio'

export interface SanityNode {
  /** The document's id; a draft's or version's id names its published document, as Sanity's does. */
  id: string
  type: string
  /** A simple field path (`title`, `body`): the field the overlay opens in the Studio. */
  path: string
}

/** A draft's (`drafts.x`) or a release version's (`versions.<release>.x`) published id. */
function publishedId(id: string): string {
  if (id.startsWith('drafts.')) return id.slice('drafts.'.length)
  const version = /^versions\.[^.]+\.(.+)$/.exec(id)
  return version?.[1] ?? id
}

/**
 * The value of a `data-sanity` attribute, which the Presentation tool's overlays
 * (@sanity/visual-editing) read to open a field in the Studio: `id=…;type=…;path=…;base=…`.
 * Written here rather than taken from `createDataAttribute` so that no page pulls
 * @sanity/visual-editing (and its dependencies) into the public bundle; sanityNode.test.ts checks
 * it against the library's output.
 */
export function sanityNodeAttribute({id, type, path}: SanityNode): string {
  return [
    ['id', publishedId(id)],
    ['type', type],
    ['path', path],
    ['base', encodeURIComponent(studioBasePath)],
  ]
    .map((part) => part.join('='))
    .join(';')
}
