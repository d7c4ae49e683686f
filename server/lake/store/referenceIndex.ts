import {isRecord} from '../../util/isRecord.ts'
import type {Lake} from '../lake.ts'
import {storeOf} from '../lake.ts'
import type {CommittedTransaction, Doc} from '../types.ts'

/** Adds `delta` to the count of every `_ref` target anywhere in `doc`. */
function countRefs(doc: Doc | null, counts: Map<string, number>, delta: 1 | -1): void {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item)
      return
    }
    if (!isRecord(value)) return
    if (typeof value._ref === 'string') {
      const next = (counts.get(value._ref) ?? 0) + delta
      if (next > 0) counts.set(value._ref, next)
      else counts.delete(value._ref)
    }
    for (const child of Object.values(value)) walk(child)
  }
  walk(doc)
}

/**
 * Which ids some document references (`_ref` anywhere in it), for the live `s1:ref` tag
 * (syncTags.ts). Built from the lake's documents on first use, then kept in step by each commit's
 * before and after, so a commit costs the size of what it changed, not of the dataset: scanning
 * every document per commit took the event loop for tens of milliseconds at 10k posts.
 */
export class ReferenceIndex {
  private counts: Map<string, number> | undefined
  private seq = 0
  private readonly lake: Lake

  constructor(lake: Lake) {
    this.lake = lake
    lake.onCommit((tx) => this.apply(tx))
  }

  /** Whether any document (as of the latest commit this index has seen) refers to one of `ids`. */
  referencesAny(ids: Iterable<string>): boolean {
    const counts = this.current()
    for (const id of ids) if (counts.has(id)) return true
    return false
  }

  private current(): Map<string, number> {
    // Built once; from then on each commit's listener keeps it in step. (Not compared with the
    // lake's revision: a group commit notifies its transactions after all of them are stored.)
    if (this.counts === undefined) {
      const counts = new Map<string, number>()
      for (const doc of storeOf(this.lake).snapshot()) countRefs(doc, counts, 1)
      this.counts = counts
      this.seq = this.lake.revision
    }
    return this.counts
  }

  private apply(tx: CommittedTransaction): void {
    // Not built yet, or built from a snapshot that already holds this commit.
    if (this.counts === undefined || tx.seq <= this.seq) return
    // Out of step (a commit it never saw): the next read rebuilds it.
    if (tx.seq !== this.seq + 1) {
      this.counts = undefined
      return
    }
    for (const {before, after} of tx.changes) {
      countRefs(before, this.counts, -1)
      countRefs(after, this.counts, 1)
    }
    this.seq = tx.seq
  }
}
