import type {PreparedTransaction, Store} from './store.ts'
import type {CommittedTransaction, Doc} from './types.ts'

interface Batch {
  entries: Array<{tx: PreparedTransaction; resolve(c: CommittedTransaction): void; reject(e: unknown): void}>
  failed: boolean
}

/**
 * Group commit: transactions built in the same event-loop turn are written in one SQLite
 * transaction, so concurrent writers share one fsync. Each caller is still answered only after
 * its transaction is durable, and readers never see a change before it is durable. Builders of
 * later transactions see earlier pending ones (`get`/`snapshot`), so writes stay serializable;
 * if a batch fails, transactions built on top of it fail too.
 */
export class GroupCommit {
  private readonly store: Store
  private readonly onCommitted: (committed: CommittedTransaction) => void
  private readonly pending = new Map<string, Doc | null>()
  private readonly pendingIds = new Set<string>()
  private batch: Batch | undefined
  /** Transactions queued or being built: the batch waits for them (bounded) to share its fsync. */
  private building = 0

  constructor(store: Store, onCommitted: (committed: CommittedTransaction) => void) {
    this.store = store
    this.onCommitted = onCommitted
  }

  /** The document as the next transaction should see it: pending changes over the store. */
  get(id: string): Doc | undefined {
    if (this.pending.has(id)) return this.pending.get(id) ?? undefined
    return this.store.get(id)
  }

  snapshot(): Doc[] {
    const committed = this.store.snapshot()
    if (this.pending.size === 0) return committed
    const out = committed.filter((doc) => !this.pending.has(doc._id))
    for (const doc of this.pending.values()) if (doc) out.push(doc)
    return out
  }

  hasTransaction(id: string): boolean {
    return this.pendingIds.has(id) || this.store.transactionById(id) !== undefined
  }

  /** The batch a builder starting now depends on (if any changes are pending). */
  dependency(): {readonly failed: boolean} | undefined {
    return this.pending.size > 0 ? this.batch : undefined
  }

  /** Brackets a transaction's build, so a flush can wait for builds already under way. */
  startBuild(): () => void {
    this.building++
    let done = false
    return () => {
      if (!done) this.building--
      done = true
    }
  }

  private schedule(batch: Batch, rounds = 0): void {
    setImmediate(() => {
      // Wait a few turns for builds in progress (they join this batch), never indefinitely.
      if (this.building > 0 && rounds < 8 && batch.entries.length < 256) this.schedule(batch, rounds + 1)
      else this.flush(batch)
    })
  }

  /** Queues a built transaction; resolves once it is durable. */
  enqueue(tx: PreparedTransaction): Promise<CommittedTransaction> {
    if (!this.batch) {
      const batch: Batch = {entries: [], failed: false}
      this.batch = batch
      this.schedule(batch)
    }
    for (const change of tx.changes) this.pending.set(change.id, change.after)
    this.pendingIds.add(tx.id)
    const batch = this.batch
    return new Promise((resolve, reject) => batch.entries.push({tx, resolve, reject}))
  }

  private flush(batch: Batch): void {
    this.batch = undefined
    this.pending.clear()
    this.pendingIds.clear()
    let committed: CommittedTransaction[]
    try {
      committed = this.store.commitMany(batch.entries.map((entry) => entry.tx))
    } catch (error) {
      batch.failed = true
      for (const entry of batch.entries) entry.reject(error)
      return
    }
    for (const [i, entry] of batch.entries.entries()) {
      this.onCommitted(committed[i])
      entry.resolve(committed[i])
    }
  }
}
