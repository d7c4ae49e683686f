/**
 * The order of `*`. groq-js evaluates `*` over its dataset array in array order, and slices and
 * `[0]` without `order()` read that order; the lake's `*` is the array groq-js would hold had
 * each committed transaction been applied to it, one document's net change at a time, in the
 * transaction's order: a document created where none was (create, createIfNotExists, a
 * createOrReplace or publish of an absent id) is appended; one replaced or patched keeps its
 * place; a deleted one leaves. So a document deleted and created again by a later transaction
 * goes to the end, and a draft is a document of its own (`drafts.x`), placed when it is created.
 * One transaction that deletes and re-creates an id changes it once: it keeps its place.
 *
 * A JavaScript Map keeps that order by itself (`set` of a present key replaces in place, of an
 * absent one appends). What needs care is coalescing several changes of one document into one
 * (a replica's pending changes, the commits still being written): "deleted, then created" must
 * still move the document to the end. SQLite keeps the order in `documents.position` (store.ts).
 */

/** One document's coalesced change: its newest value (null: deleted), and whether it moves. */
export interface CoalescedChange<T> {
  value: T | null
  /** Deleted and created again since the base: it leaves its place and is appended. */
  recreated: boolean
}

/** Changes of documents over a base (a replica, the committed store), coalesced per id. */
export class ChangeOverlay<T> {
  private readonly changes = new Map<string, CoalescedChange<T>>()

  get size(): number {
    return this.changes.size
  }

  has(id: string): boolean {
    return this.changes.has(id)
  }

  /** The newest value (null: deleted), or undefined when the document has no change here. */
  get(id: string): T | null | undefined {
    return this.changes.get(id)?.value
  }

  /** Files one change after the ones already here. */
  set(id: string, value: T | null): void {
    const previous = this.changes.get(id)
    if (previous?.value === null && value !== null) {
      // Created again after a delete: it takes the end, after every change filed so far.
      this.changes.delete(id)
      this.changes.set(id, {value, recreated: true})
    } else this.changes.set(id, {value, recreated: previous?.recreated ?? false})
  }

  /** Files a coalesced change from another overlay, as if its changes came one by one. */
  setCoalesced(id: string, change: CoalescedChange<T>): void {
    if (change.recreated) this.set(id, null)
    this.set(id, change.value)
  }

  entries(): IterableIterator<[string, CoalescedChange<T>]> {
    return this.changes.entries()
  }

  clear(): void {
    this.changes.clear()
  }

  /** Applies the changes, in order, to an ordered map of the base (a replica's documents). */
  applyTo<U>(docs: Map<string, U>, convert: (value: T) => U): void {
    applyChanges(docs, this.changes, convert)
  }
}

function applyChanges<T, U>(
  docs: Map<string, U>,
  changes: Iterable<[string, CoalescedChange<T>]>,
  convert: (value: T) => U,
): void {
  for (const [id, {value, recreated}] of changes) {
    if (recreated || value === null) docs.delete(id)
    if (value !== null) docs.set(id, convert(value))
  }
}

/** `base` (in `*` order) with `changes` over it, as a new array in `*` order. */
export function overlaid<D extends {_id: string}>(
  base: readonly D[],
  changes: Iterable<[string, CoalescedChange<D>]>,
): D[] {
  const docs = new Map(base.map((doc) => [doc._id, doc]))
  applyChanges(docs, changes, (doc) => doc)
  return [...docs.values()]
}
