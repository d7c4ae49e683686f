import type {Doc} from './types.ts'
import {isDraftId, isPublicId, publishedIdOf} from './types.ts'

export const namedPerspectives = ['raw', 'published', 'drafts', 'previewDrafts'] as const
type NamedPerspective = (typeof namedPerspectives)[number]

/**
 * A perspective stack (`perspective=rA,drafts`): layers highest first, each a release id or
 * `drafts`; the published documents always lie beneath
 * (https://www.sanity.io/docs/content-lake/perspectives).
 */
export type PerspectiveStack = readonly string[]

export type Perspective = NamedPerspective | PerspectiveStack

/** A release id as Sanity's clients make them: letters, digits, `_` and `-`, no dot. */
export const releaseIdPattern = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,63}$/

/**
 * Reads a `perspective` parameter: a named perspective, or a comma list of release ids and
 * `drafts`, optionally ending in `published`. Undefined when it is neither.
 */
export function parsePerspective(value: string): Perspective | undefined {
  const named = namedPerspectives.find((name) => name === value)
  if (named !== undefined && named !== 'drafts') return named
  const layers = value.split(',').map((layer) => layer.trim())
  if (layers.at(-1) === 'published' && layers.length > 1) layers.pop()
  if (layers.length === 1 && layers[0] === 'drafts') return 'drafts'
  const valid = layers.every(
    (layer, i) =>
      (layer === 'drafts' ||
        (releaseIdPattern.test(layer) && !namedPerspectives.some((n) => n === layer))) &&
      layers.indexOf(layer) === i,
  )
  return valid && layers.length > 0 && layers.length <= 10 ? layers : undefined
}

/**
 * Since API v2025-02-19 the default perspective is `published`; before it was `raw`
 * (https://www.sanity.io/docs/content-lake/perspectives).
 */
export function defaultPerspective(apiVersion: string): Perspective {
  if (apiVersion === 'X') return 'published'
  return /^\d{4}-\d{2}-\d{2}$/.test(apiVersion) && apiVersion >= '2025-02-19' ? 'published' : 'raw'
}

/**
 * Drafts and release versions: what the published perspective leaves out. Other private ids
 * (inbox.*) are plain documents to an authenticated reader, as in Sanity
 * (https://www.sanity.io/docs/content-lake/drafts-and-versions); the Studio's lists query with
 * perspective=drafts and must see them.
 */
function isVariantId(id: string): boolean {
  return id.startsWith('drafts.') || id.startsWith('versions.')
}

/**
 * What a read-only preview session (previewSessions.ts) reads: public documents and the drafts
 * of public documents, never other private ids (inbox.*) nor the Studio's own system documents
 * (its preview secrets are drafts of a public id).
 */
export function isPreviewVisible(doc: Pick<Doc, '_id' | '_type'>): boolean {
  if (isPublicId(doc._id)) return true
  const system = typeof doc._type === 'string' && doc._type.startsWith('sanity.')
  return !system && isDraftId(doc._id) && isPublicId(publishedIdOf(doc._id))
}

/** Who reads: a visitor (public ids only), a preview session, or the owner (everything). */
export type Reader = 'anonymous' | 'preview' | 'owner'

/**
 * The documents a query sees. Anonymous readers never see private ids (any id with a dot),
 * whatever perspective they ask for; `drafts` overlays each draft onto its published id.
 */
export function documentsFor(all: Doc[], perspective: Perspective, reader: Reader): Doc[] {
  const visible =
    reader === 'owner'
      ? all
      : all.filter(reader === 'preview' ? isPreviewVisible : (doc) => isPublicId(doc._id))
  if (typeof perspective !== 'string') return stacked(visible, perspective)
  switch (perspective) {
    case 'raw':
      return visible
    case 'published':
      return visible.filter((doc) => !isVariantId(doc._id))
    case 'drafts':
    case 'previewDrafts':
      return stacked(visible, ['drafts'])
  }
}

/** Which layer of a stack a document lies in: its index, the stack's length for published. */
export function layerOf(
  id: string,
  stack: PerspectiveStack,
): {base: string; rank: number} | undefined {
  if (id.startsWith('drafts.')) {
    const base = id.slice('drafts.'.length)
    const rank = stack.indexOf('drafts')
    return rank < 0 || isVariantId(base) ? undefined : {base, rank}
  }
  if (id.startsWith('versions.')) {
    const [, release, ...rest] = id.split('.')
    const base = rest.join('.')
    const rank = stack.indexOf(release)
    return rank < 0 || base === '' || isVariantId(base) ? undefined : {base, rank}
  }
  return {base: id, rank: stack.length}
}

/** The ids a stack reads for `base`, highest layer first, ending with the published id. */
export function layerIds(base: string, stack: PerspectiveStack): string[] {
  return [
    ...stack.map((layer) => (layer === 'drafts' ? `drafts.${base}` : `versions.${layer}.${base}`)),
    base,
  ]
}

/**
 * Each document id as the highest layer holding it shows it, with `_originalId` naming the
 * document it came from. A version marked to unpublish the document (`_system.delete`, the
 * Actions API's `version.unpublish`) hides it in that perspective.
 */
function stacked(visible: Doc[], stack: PerspectiveStack): Doc[] {
  const chosen = new Map<string, {rank: number; doc: Doc}>()
  for (const doc of visible) {
    const layer = layerOf(doc._id, stack)
    if (!layer) continue
    const current = chosen.get(layer.base)
    if (!current || layer.rank < current.rank) chosen.set(layer.base, {rank: layer.rank, doc})
  }
  const out: Doc[] = []
  for (const [base, {doc}] of chosen) {
    if (isMarkedForUnpublish(doc)) continue
    out.push({...doc, _id: base, _originalId: doc._id})
  }
  return out
}

/** A version that unpublishes its document when its release is published. */
export function isMarkedForUnpublish(doc: Doc): boolean {
  const system = doc._system
  return (
    typeof system === 'object' && system !== null && 'delete' in system && system.delete === true
  )
}
