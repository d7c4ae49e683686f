import {isRecord} from '../../util/isRecord.ts'
import {mutationError} from '../errors.ts'
import type {TransactionBuilder} from './mutations.ts'
import type {CommittedTransaction, Doc, DocumentChange} from '../types.ts'

/** A published document: an id with no dot (drafts, versions and private ids have one). */
const isPublished = (id: string) => !id.includes('.')

/**
 * The ids a document references strongly: every `_ref` not marked `_weak`, anywhere in it
 * (https://www.sanity.io/docs/content-lake/references: a strong reference keeps its target from
 * being deleted; a weak one does not).
 */
export function strongRefs(doc: Doc | null): Set<string> {
  const found = new Set<string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item)
      return
    }
    if (!isRecord(value)) return
    if (typeof value._ref === 'string' && value._weak !== true) found.add(value._ref)
    for (const child of Object.values(value)) walk(child)
  }
  walk(doc)
  return found
}

/**
 * Which published documents strongly reference each id, kept in step by each commit's before
 * and after (as referenceIndex.ts is), so that checking a delete costs the referrers of what is
 * deleted, not a walk of the dataset: every publish deletes a draft.
 */
export class StrongReferrers {
  private byTarget: Map<string, Set<string>> | undefined
  private seq = 0
  private readonly load: () => {docs: Iterable<Doc>; seq: number}

  constructor(load: () => {docs: Iterable<Doc>; seq: number}) {
    this.load = load
  }

  /** The published documents that, as of the last commit, strongly reference `id`. */
  referrers(id: string): ReadonlySet<string> {
    return this.current().get(id) ?? new Set()
  }

  private current(): Map<string, Set<string>> {
    if (this.byTarget === undefined) {
      const {docs, seq} = this.load()
      const byTarget = new Map<string, Set<string>>()
      for (const doc of docs) this.add(byTarget, doc)
      this.byTarget = byTarget
      this.seq = seq
    }
    return this.byTarget
  }

  private add(byTarget: Map<string, Set<string>>, doc: Doc | null): void {
    if (!doc || !isPublished(doc._id)) return
    for (const target of strongRefs(doc)) {
      const referrers = byTarget.get(target) ?? new Set<string>()
      referrers.add(doc._id)
      byTarget.set(target, referrers)
    }
  }

  private remove(byTarget: Map<string, Set<string>>, doc: Doc | null): void {
    if (!doc || !isPublished(doc._id)) return
    for (const target of strongRefs(doc)) {
      const referrers = byTarget.get(target)
      referrers?.delete(doc._id)
      if (referrers?.size === 0) byTarget.delete(target)
    }
  }

  /** The lake's commit listener. */
  apply(tx: CommittedTransaction): void {
    if (this.byTarget === undefined || tx.seq <= this.seq) return
    // Out of step (a commit it never saw): the next read rebuilds it.
    if (tx.seq !== this.seq + 1) {
      this.byTarget = undefined
      return
    }
    for (const {before, after} of tx.changes) {
      this.remove(this.byTarget, before)
      this.add(this.byTarget, after)
    }
    this.seq = tx.seq
  }
}

/**
 * Refuses a transaction that deletes a document some published document still references
 * strongly once the transaction is applied, with hosted Sanity's answer: 409, a `mutationError`
 * whose item is a `documentHasExistingReferencesError` naming the referring ids. A transaction
 * that deletes both, or first removes the reference, passes.
 */
export function checkStrongReferences(tx: TransactionBuilder, index: StrongReferrers): void {
  const changes: DocumentChange[] = tx.changes()
  const deleted = changes.filter((change) => change.before !== null && change.after === null)
  if (deleted.length === 0) return
  const changedHere = changes.filter((c) => c.after !== null && isPublished(c.id)).map((c) => c.id)
  for (const [position, {id}] of deleted.entries()) {
    const candidates = new Set([...index.referrers(id), ...changedHere])
    const referencingIDs = [...candidates].filter((referrer) =>
      strongRefs(tx.get(referrer)).has(id),
    )
    if (referencingIDs.length === 0) continue
    const description = `Document "${id}" cannot be deleted as there are references to it from "${referencingIDs[0]}"`
    throw mutationError(`The mutation(s) failed: ${description}`, [
      {
        error: {type: 'documentHasExistingReferencesError', description, id, referencingIDs},
        index: position,
      },
    ])
  }
}
