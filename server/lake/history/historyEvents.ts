import {historySeqs} from './historyLog.ts'
import type {Store} from '../store/store.ts'
import type {Doc} from '../types.ts'

/**
 * The Studio's document events (GET /data/history/{dataset}/events/documents/{id}), derived
 * from the transaction log. Shapes follow `DocumentGroupEvent` in sanity 6.16's typings
 * (lib/*.d.ts): one event per lifecycle step of the document group (published + draft);
 * plain draft edits are not events, the Studio builds those from the transactions API.
 */
export interface DocumentEvent {
  type: string
  timestamp: string
  author: string
  documentId: string
  [field: string]: unknown
}

function groupOf(id: string): {publishedId: string; draftId: string} {
  const publishedId = id.startsWith('drafts.')
    ? id.slice('drafts.'.length)
    : id.replace(/^versions\.[^.]+\./, '')
  return {publishedId, draftId: `drafts.${publishedId}`}
}

interface Step {
  before: Doc | null
  after: Doc | null
}

function classify(
  publishedId: string,
  draftId: string,
  published: Step | undefined,
  draft: Step | undefined,
  publishedNow: Doc | null,
): Record<string, unknown> | undefined {
  const draftGone = draft?.before && !draft.after
  if (published?.after && draftGone) {
    return {
      type: 'publishDocumentVersion',
      revisionId: published.after._rev,
      versionId: draftId,
      versionRevisionId: draft?.before?._rev,
      publishCause: 'document.publish',
    }
  }
  if (published?.before && !published.after) {
    if (draft?.after)
      return {type: 'unpublishDocument', versionId: draftId, versionRevisionId: draft.after._rev}
    return {type: 'deleteDocumentGroup'}
  }
  if (draftGone) {
    return publishedNow
      ? {type: 'deleteDocumentVersion', versionId: draftId, versionRevisionId: draft?.before?._rev}
      : {type: 'deleteDocumentGroup'}
  }
  if (draft && !draft.before && draft.after) {
    return {type: 'createDocumentVersion', versionId: draftId, versionRevisionId: draft.after._rev}
  }
  if (published && !published.before && published.after) {
    // Written straight to the published id, never through a draft (the seed import, the contact
    // relay, a mutation): a live document. Reported as `createDocumentVersion` the Studio reads
    // it in the drafts perspective as "Draft created"; `createLiveDocument` reads "Created" in
    // every perspective (sanity 6.16's TIMELINE_ITEM_I18N_KEY_MAPPING).
    return {type: 'createLiveDocument', revisionId: published.after._rev}
  }
  if (published?.before && published.after)
    return {type: 'updateLiveDocument', revisionId: published.after._rev}
  return undefined
}

/** Newest first, `limit` events a page; `nextCursor` is '' once the log is exhausted. */
export function documentEvents(
  store: Store,
  id: string,
  limit: number,
  cursor?: string,
): {events: DocumentEvent[]; nextCursor: string} {
  const {publishedId, draftId} = groupOf(id)
  const events: DocumentEvent[] = []
  let toSeq = cursor && /^\d+$/.test(cursor) ? Number(cursor) - 1 : Number.MAX_SAFE_INTEGER
  for (;;) {
    const seqs = historySeqs(store.db, [publishedId, draftId], {toSeq, limit: 200, reverse: true})
    for (const seq of seqs) {
      toSeq = seq - 1
      const tx = store.transactionAt(seq)
      if (!tx) continue
      const step = (docId: string): Step | undefined => {
        const doc = tx.documents.find((d) => d.id === docId)
        return doc ? {before: store.documentAt(docId, seq - 1), after: doc.after} : undefined
      }
      const kind = classify(
        publishedId,
        draftId,
        step(publishedId),
        step(draftId),
        store.documentAt(publishedId, seq),
      )
      if (!kind) continue
      events.push({
        ...kind,
        type: String(kind.type),
        timestamp: tx.timestamp,
        author: tx.author,
        documentId: publishedId,
      })
      if (events.length >= limit) {
        const more =
          historySeqs(store.db, [publishedId, draftId], {toSeq: seq - 1, limit: 1, reverse: true})
            .length > 0
        return {events, nextCursor: more ? String(seq) : ''}
      }
    }
    if (seqs.length < 200) return {events, nextCursor: ''}
  }
}
