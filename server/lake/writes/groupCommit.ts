import {LakeError} from '../errors.ts'
import type {PreparedTransaction, Store} from '../store/store.ts'
import type {CommittedTransaction, Doc} from '../types.ts'
import {ChangeOverlay, overlaid} from '../store/documentOrder.ts'

interface Batch {
  entries: Array<{
    tx: PreparedTransaction
    resolve(c: CommittedTransaction): void
    reject(e: unknown): void
  }>
  failed: boolean
}

/**
 * Group commit: the transactions built in one turn of the event loop are written in one SQLite
 * transaction (one fsync), each with its own log entry, at the end of that turn (setImmediate
 * runs after the poll phase has read every request that arrived, including those that came in
 * while the previous batch was being fsynced). A lone writer is not delayed; concurrent writers
 * share fsyncs. Each caller is answered only after its transaction is durable, and readers never
 * see a change before that. Builders of later transactions see pending ones (`get`/`snapshot`),
 * so writes stay serializable; if a batch fails, transactions built on top of it fail too.
 *
 * The commit runs on the main thread. A writer thread (main thread free during the fsync) was
 * tried: on the 2-core bench machine it cost ~0.1 ms more CPU per mutation (postMessage, thread
 * wake-ups) and gave no more mutations/s; it would pay off only where fsyncs are slow.
 */
export class GroupCommit {
  private readonly store: Store
  /** Called once per batch, in log order, before any of its writers hears back. */
  private readonly onCommitted: (committed: CommittedTransaction[]) => void
  private readonly pending = new ChangeOverlay<Doc>()
  private readonly pendingIds = new Set<string>()
  private batch: Batch | undefined
  private closed = false

  constructor(store: Store, onCommitted: (committed: CommittedTransaction[]) => void) {
    this.store = store
    this.onCommitted = onCommitted
  }

  /** Whether no transaction is waiting to be written. */
  get idle(): boolean {
    return this.batch === undefined
  }

  /** The document as the next transaction should see it: pending changes over the store. */
  get(id: string): Doc | undefined {
    if (this.pending.has(id)) return this.pending.get(id) ?? undefined
    return this.store.get(id)
  }

  /** Every document with the pending changes, in the order of `*` once they are written. */
  snapshot(): Doc[] {
    const committed = this.store.snapshot()
    if (this.pending.size === 0) return committed
    return overlaid(committed, this.pending.entries())
  }

  /** Changes built but not yet written (null: deleted), which the query workers do not have yet. */
  pendingChanges(): ChangeOverlay<Doc> {
    return this.pending
  }

  hasTransaction(id: string): boolean {
    return this.pendingIds.has(id) || this.store.transactionById(id) !== undefined
  }

  /** The batch a builder starting now depends on (if any changes are pending). */
  dependency(): {readonly failed: boolean} | undefined {
    return this.pending.size > 0 ? this.batch : undefined
  }

  /** Queues a built transaction; resolves once it is durable. */
  enqueue(tx: PreparedTransaction): Promise<CommittedTransaction> {
    if (this.closed)
      return Promise.reject(new LakeError(503, 'serviceUnavailable', 'The lake is shutting down'))
    if (!this.batch) {
      const batch: Batch = {entries: [], failed: false}
      this.batch = batch
      setImmediate(() => this.flush(batch))
    }
    for (const change of tx.changes) this.pending.set(change.id, change.after)
    this.pendingIds.add(tx.id)
    const batch = this.batch
    return new Promise((resolve, reject) => batch.entries.push({tx, resolve, reject}))
  }

  private flush(batch: Batch): void {
    if (this.batch !== batch) return
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
    this.onCommitted(committed)
    for (const [i, entry] of batch.entries.entries()) entry.resolve(committed[i])
  }

  /** Refuses further writes and what is still queued: nothing of it was written. */
  close(): void {
    this.closed = true
    const batch = this.batch
    this.batch = undefined
    this.pending.clear()
    this.pendingIds.clear()
    if (!batch) return
    batch.failed = true
    const error = new LakeError(503, 'serviceUnavailable', 'The lake is shutting down')
    for (const entry of batch.entries) entry.reject(error)
  }
}
