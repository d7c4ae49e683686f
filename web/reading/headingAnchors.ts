/** A heading of a post's body, with the anchor the page gives it. */
export interface HeadingAnchor {
  /** The block's `_key`. */
  key: string
  /** The `id` attribute: from the heading's text, so a link to it survives edits elsewhere. */
  id: string
  text: string
  /** The block style as written. */
  style: BodyHeadingStyle
}

const bodyHeadingStyles = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const
export type BodyHeadingStyle = (typeof bodyHeadingStyles)[number]

function isHeadingStyle(style: string | undefined): style is BodyHeadingStyle {
  return (bodyHeadingStyles as readonly (string | undefined)[]).includes(style)
}

interface BodyBlock {
  _type?: string
  _key?: string
  style?: string
  children?: ReadonlyArray<{text?: string}>
}

/** "Why I Edit — 2nd Draft!" → "why-i-edit-2nd-draft"; accents are dropped, not the letters. */
export function anchorSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
  return slug || 'section'
}

/**
 * Every heading of a body with a unique, stable id: its text's slug, then `-2`, `-3`, … for
 * repeats in order. The ids never collide with the page's own (`contents`, `related`, `subscribe`, `main`): those carry
 * a suffix too.
 */
export function headingAnchors(body: ReadonlyArray<BodyBlock> | null | undefined): HeadingAnchor[] {
  const taken = new Set<string>(reservedIds)
  const anchors: HeadingAnchor[] = []
  for (const block of body ?? []) {
    if (block._type !== 'block' || !isHeadingStyle(block.style)) continue
    const text = (block.children ?? []).map((child) => child.text ?? '').join('')
    if (!text.trim()) continue
    const base = anchorSlug(text)
    let id = base
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
    taken.add(id)
    anchors.push({key: block._key ?? id, id, text, style: block.style})
  }
  return anchors
}

/** Ids the post page uses for itself (web/reading/TableOfContents.tsx, the subscribe form). */
export const reservedIds = ['contents', 'related', 'subscribe', 'main']

/** Posts with at least this many headings show a table of contents. */
export const tableOfContentsMinimum = 3
