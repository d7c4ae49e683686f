import type {Doc} from './types.ts'
import {isDraftId, isPublicId, publishedIdOf} from './types.ts'

export const perspectives = ['raw', 'published', 'drafts', 'previewDrafts'] as const
export type Perspective = (typeof perspectives)[number]

export function isPerspective(value: string): value is Perspective {
  return (perspectives as readonly string[]).includes(value)
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
  switch (perspective) {
    case 'raw':
      return visible
    case 'published':
      return visible.filter((doc) => !isVariantId(doc._id))
    case 'drafts':
    case 'previewDrafts': {
      const out = new Map<string, Doc>()
      for (const doc of visible) {
        if (isDraftId(doc._id)) {
          const id = publishedIdOf(doc._id)
          if (!isVariantId(id)) out.set(id, {...doc, _id: id, _originalId: doc._id})
        } else if (!isVariantId(doc._id) && !out.has(doc._id)) {
          out.set(doc._id, {...doc, _originalId: doc._id})
        }
      }
      return [...out.values()]
    }
  }
}
