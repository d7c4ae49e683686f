import {prefixSeqs} from '../history/historyLog.ts'
import {isRecord} from '../../util/isRecord.ts'
import type {Store, StoredTransaction} from '../store/store.ts'
import type {Doc} from '../types.ts'
import {releaseDocumentId} from './releaseIds.ts'

/**
 * A release's Activity (GET /data/history/{dataset}/events/releases/{releaseId}), derived from
 * the transaction log. Shapes follow `ReleaseEvent` in sanity 6.16's release tool
 * (core/releases/tool/detail/events/types.ts): the Studio adds `id` and `origin` itself, and
 * builds `editRelease` (a new time or type) from the transactions API, so it is not one here.
 */
export interface ReleaseEvent {
  type:
    | 'createRelease'
    | 'scheduleRelease'
    | 'unscheduleRelease'
    | 'publishRelease'
    | 'archiveRelease'
    | 'unarchiveRelease'
    | 'addDocumentToRelease'
    | 'discardDocumentFromRelease'
  timestamp: string
  author: string
  releaseName: string
  [field: string]: unknown
}

/** An event before the transaction's time and author are added. */
interface Body {
  type: ReleaseEvent['type']
  [field: string]: unknown
}

/** Log positions read per step, and at most per request: a page's time is bounded. */
const pageSize = 200
const maxScanned = 5_000

const stateOf = (doc: Doc | null) => (typeof doc?.state === 'string' ? doc.state : undefined)

/** What a change of the release document means, if anything. */
function releaseChange(before: Doc | null, after: Doc | null): Body | undefined {
  if (!after) return undefined
  if (!before) {
    const metadata = isRecord(after.metadata) ? after.metadata : {}
    const {releaseType, intendedPublishAt} = metadata
    const change = {
      ...(typeof releaseType === 'string' && {releaseType}),
      ...(typeof intendedPublishAt === 'string' && {intendedPublishDate: intendedPublishAt}),
    }
    return {type: 'createRelease', ...(Object.keys(change).length > 0 && {change})}
  }
  const [from, to] = [stateOf(before), stateOf(after)]
  if (from === to) return undefined
  if (to === 'scheduled') return {type: 'scheduleRelease', publishAt: after.publishAt}
  if (to === 'published') return {type: 'publishRelease'}
  if (to === 'archived') return {type: 'archiveRelease'}
  if (from === 'scheduled' && to === 'active') return {type: 'unscheduleRelease'}
  if (from === 'archived' && to === 'active') return {type: 'unarchiveRelease'}
  return undefined
}

/**
 * A transaction's events for the release, in its order. Versions written or removed by a
 * change of the release itself (publishing, archiving, unarchiving) are part of that event,
 * not documents added or discarded.
 */
function eventsOf(store: Store, tx: StoredTransaction, releaseId: string): Body[] {
  const releaseDocId = releaseDocumentId(releaseId)
  const prefix = `versions.${releaseId}.`
  const own = tx.documents.find((doc) => doc.id === releaseDocId)
  if (own) {
    const before = store.documentAt(releaseDocId, tx.seq - 1)
    if (!before || !own.after || stateOf(before) !== stateOf(own.after)) {
      const event = releaseChange(before, own.after)
      return event ? [event] : []
    }
  }
  const events: Body[] = []
  for (const doc of tx.documents) {
    if (!doc.id.startsWith(prefix)) continue
    const documentId = doc.id.slice(prefix.length)
    const before = store.documentAt(doc.id, tx.seq - 1)
    if (!before && doc.after) {
      events.push({
        type: 'addDocumentToRelease',
        documentId,
        documentType: doc.after._type,
        versionId: doc.id,
        versionRevisionId: doc.after._rev,
        // The published revision the version started from, when the document was published.
        revisionId: store.documentAt(documentId, tx.seq - 1)?._rev,
      })
    } else if (before && !doc.after) {
      events.push({
        type: 'discardDocumentFromRelease',
        documentId,
        documentType: before._type,
        versionId: doc.id,
        versionRevisionId: before._rev,
      })
    }
  }
  return events
}

/**
 * Newest first, at most `limit` events a page. The cursor is `<seq>` (go on before that
 * transaction) or `<seq>:<n>` (go on after its first n events); '' once the log is exhausted.
 */
export function releaseEvents(
  store: Store,
  releaseId: string,
  limit: number,
  cursor?: string,
): {events: ReleaseEvent[]; nextCursor: string} {
  const match = cursor === undefined ? null : /^(\d+)(?::(\d+))?$/.exec(cursor)
  let toSeq = match ? Number(match[1]) - (match[2] === undefined ? 1 : 0) : Number.MAX_SAFE_INTEGER
  let skip = match?.[2] === undefined ? 0 : Number(match[2])
  const events: ReleaseEvent[] = []
  const prefix = `versions.${releaseId}.`
  let scanned = 0
  for (;;) {
    const seqs = prefixSeqs(store.db, releaseDocumentId(releaseId), prefix, {
      toSeq,
      limit: pageSize,
    })
    for (const seq of seqs) {
      const tx = store.transactionAt(seq)
      const bodies = tx ? eventsOf(store, tx, releaseId) : []
      for (const [n, body] of bodies.entries()) {
        if (n < skip || !tx) continue
        if (events.length === limit) return {events, nextCursor: `${seq}:${n}`}
        events.push({...body, timestamp: tx.timestamp, author: tx.author, releaseName: releaseId})
      }
      skip = 0
      toSeq = seq - 1
      if (++scanned >= maxScanned) return {events, nextCursor: String(seq)}
    }
    if (seqs.length < pageSize) return {events, nextCursor: ''}
  }
}
