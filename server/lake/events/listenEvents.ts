import {isMut} from '../writes/mutations.ts'
import {documentEffects, type Effects} from './effects.ts'
import type {Store, StoredTransaction} from '../store/store.ts'
import type {PerspectiveStack} from '../perspective.ts'
import {isPublicId, type CommittedTransaction, type Doc} from '../types.ts'

/** What one listener asked for, as @sanity/client encodes it in the listen URL. */
export interface ListenOptions {
  includeResult: boolean
  includePreviousRevision: boolean
  includeMutations: boolean
  includeAllVersions: boolean
  /** `effectFormat=mendoza` */
  effects: boolean
  /** Anonymous listeners never see ids with a dot (drafts.*, inbox.*, ...). */
  authenticated: boolean
  /**
   * `perspective=…` (listenPerspective.ts): events for documents as this stack shows them, under
   * their published ids. Undefined: every id as it is (raw).
   */
  perspective?: PerspectiveStack
}

export interface MutationEvent {
  eventId: string
  documentId: string
  transactionId: string
  transition: 'appear' | 'update' | 'disappear'
  identity: string
  mutations?: unknown[]
  result?: Doc
  previous?: Doc | null
  previousRev?: string
  resultRev?: string
  timestamp: string
  visibility: 'query'
  effects?: Effects
  transactionTotalEvents: number
  transactionCurrentEvent: number
}

/** A listener's filter, as sent to the query pool (lake.ts `matchFilter`). */
export interface Filter {
  query: string
  params: Record<string, unknown>
}

/** Effects per committed change, shared by every listener that receives it (the Studio opens ~8). */
const effectsCache = new WeakMap<object, Effects>()

function effectsOf(change: CommittedTransaction['changes'][number]): Effects {
  let effects = effectsCache.get(change)
  if (!effects) {
    effects = documentEffects(change.before, change.after)
    effectsCache.set(change, effects)
  }
  return effects
}

function visible(id: string, options: ListenOptions): boolean {
  if (!options.authenticated && !isPublicId(id)) return false
  // Release versions only reach listeners that ask for them, as on Sanity.
  if (!options.includeAllVersions && id.startsWith('versions.')) return false
  return true
}

/**
 * The documents whose match decides a transaction's events for one listener: before and after
 * of each change it may see, in order. The filter is evaluated on them off the main thread
 * (Sanity's listener semantics: against a dataset of just that document, projections ignored).
 */
export function documentsToMatch(
  tx: CommittedTransaction,
  options: ListenOptions,
): Array<Doc | null> {
  return tx.changes
    .filter((change) => visible(change.id, options))
    .flatMap((change) => [change.before, change.after])
}

/**
 * The `mutation` events one committed transaction yields for one listener, in order, given
 * `verdicts`: whether each of `documentsToMatch(tx, options)` matched the filter.
 */
export function eventsFor(
  tx: CommittedTransaction,
  verdicts: readonly boolean[],
  options: ListenOptions,
): MutationEvent[] {
  const events: Array<Omit<MutationEvent, 'transactionTotalEvents' | 'transactionCurrentEvent'>> =
    []
  let next = 0
  for (const change of tx.changes) {
    if (!visible(change.id, options)) continue
    const before = verdicts[next++] === true
    const after = verdicts[next++] === true
    if (!before && !after) continue
    const event: Omit<MutationEvent, 'transactionTotalEvents' | 'transactionCurrentEvent'> = {
      eventId: `${tx.id}#${change.id}`,
      documentId: change.id,
      transactionId: tx.id,
      transition: !before ? 'appear' : !after ? 'disappear' : 'update',
      identity: tx.author,
      timestamp: tx.timestamp,
      visibility: 'query',
    }
    if (options.includeMutations) event.mutations = change.mutations
    if (options.includeResult && change.after) event.result = change.after
    if (options.includePreviousRevision) event.previous = change.before
    if (change.before?._rev) event.previousRev = change.before._rev
    // A delete still carries resultRev (the transaction id), as on Sanity: the Studio chains each
    // document's events by previousRev → resultRev and drops a link without one, after which the
    // next edit of that id stalls for 30 s ("Did not resolve chain") — fix by the Studio engineer.
    event.resultRev = change.after?._rev ?? tx.id
    if (options.effects) event.effects = effectsOf(change)
    events.push(event)
  }
  return events.map((event, index) => ({
    ...event,
    transactionTotalEvents: events.length,
    transactionCurrentEvent: index + 1,
  }))
}

/** Rebuilds a committed transaction (with each document's state before it) from the log. */
export function fromLog(store: Store, stored: StoredTransaction): CommittedTransaction {
  return {
    seq: stored.seq,
    id: stored.id,
    timestamp: stored.timestamp,
    author: stored.author,
    changes: stored.documents.map((doc) => ({
      id: doc.id,
      before: store.documentAt(doc.id, stored.seq - 1),
      after: doc.after,
      // The log stores mutations as they were applied (each one a Mut).
      mutations: doc.mutations.filter(isMut),
    })),
  }
}
