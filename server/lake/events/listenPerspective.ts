import {
  isMarkedForUnpublish,
  layerIds,
  layerOf,
  parsePerspective,
  type PerspectiveStack,
} from '../perspective.ts'
import type {CommittedTransaction, Doc} from '../types.ts'

/**
 * The `perspective` of a listener (GET /data/listen?perspective=…), as a stack: `published` is
 * the empty stack, `drafts` and `previewDrafts` are `['drafts']`, a list of release ids (and
 * `drafts`) is itself; `raw` and no parameter are undefined, the listener's plain behaviour.
 * `ok: false` when the value is no perspective.
 */
export function listenPerspective(
  value: string | undefined,
): {ok: true; stack: PerspectiveStack | undefined} | {ok: false} {
  if (value === undefined || value === '') return {ok: true, stack: undefined}
  const perspective = parsePerspective(value)
  if (perspective === undefined) return {ok: false}
  if (typeof perspective !== 'string') return {ok: true, stack: perspective}
  if (perspective === 'raw') return {ok: true, stack: undefined}
  return {ok: true, stack: perspective === 'published' ? [] : ['drafts']}
}

/** A document as the stack shows it: under its published id, naming where it came from. */
function shown(doc: Doc | null, from: string, base: string): Doc | null {
  if (!doc || isMarkedForUnpublish(doc)) return null
  return {...doc, _id: base, _originalId: from}
}

/**
 * A committed transaction as a listener with `stack` sees it: one change per published id whose
 * shown document changed (before and after as the stack shows them, under the published id), and
 * none for a change in a layer the stack does not read or that a higher layer hides.
 * `documentAt(id, seq)` reads the log, for the layers this transaction did not change.
 */
export function viewThrough(
  tx: CommittedTransaction,
  stack: PerspectiveStack,
  documentAt: (id: string, seq: number) => Doc | null,
): CommittedTransaction {
  // Published only: the published ids' changes as they are (a query's published result has no
  // `_originalId` either).
  if (stack.length === 0)
    return {...tx, changes: tx.changes.filter((change) => layerOf(change.id, stack) !== undefined)}
  const byBase = new Map<string, CommittedTransaction['changes']>()
  for (const change of tx.changes) {
    const layer = layerOf(change.id, stack)
    if (!layer) continue
    const changes = byBase.get(layer.base) ?? []
    changes.push(change)
    byBase.set(layer.base, changes)
  }
  const changes: CommittedTransaction['changes'] = []
  for (const [base, own] of byBase) {
    const changed = new Map(own.map((change) => [change.id, change]))
    const ids = layerIds(base, stack)
    // A layer this transaction did not change is the same before and after it.
    const unchanged = new Map<string, Doc | null>()
    const at = (id: string) => {
      if (!unchanged.has(id)) unchanged.set(id, documentAt(id, tx.seq))
      return unchanged.get(id) ?? null
    }
    const side = (which: 'before' | 'after'): Doc | null => {
      for (const id of ids) {
        const change = changed.get(id)
        const doc = change ? change[which] : at(id)
        if (doc) return shown(doc, id, base)
      }
      return null
    }
    const before = side('before')
    const after = side('after')
    if (!before && !after) continue
    if (before && after && before._originalId === after._originalId && before._rev === after._rev)
      continue
    changes.push({id: base, before, after, mutations: own.flatMap((change) => change.mutations)})
  }
  return {...tx, changes}
}
