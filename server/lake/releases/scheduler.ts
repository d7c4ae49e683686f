import {owner} from '../auth.ts'
import {messageOf} from '../../util/messageOf.ts'
import {storeOf, type Lake} from '../lake.ts'
import type {TransactionBuilder} from '../writes/mutations.ts'
import type {CommittedTransaction} from '../types.ts'
import {publishRelease} from './publishRelease.ts'
import {releaseDocumentId, releaseDocumentPrefix, releaseType} from './releaseIds.ts'

/**
 * The longest the scheduler sleeps between two looks at the wall clock: timers run on a
 * monotonic clock, so a wall-clock change (NTP, a suspended laptop) is noticed within this.
 */
export const maxSleepMs = 30_000
/** After a failed publish (a full disk, say), the next try. */
export const retryMs = 5_000

interface Due {
  releaseId: string
  publishAt: number
}

/** Scheduled releases by `publishAt`, earliest first, from the lake's current documents. */
function scheduledReleases(lake: Lake): Due[] {
  const out: Due[] = []
  for (const doc of storeOf(lake).snapshot()) {
    if (doc._type !== releaseType || doc.state !== 'scheduled') continue
    if (!doc._id.startsWith(releaseDocumentPrefix)) continue
    const publishAt = typeof doc.publishAt === 'string' ? Date.parse(doc.publishAt) : Number.NaN
    if (Number.isNaN(publishAt)) continue
    out.push({releaseId: doc._id.slice(releaseDocumentPrefix.length), publishAt})
  }
  return out.sort((a, b) => a.publishAt - b.publishAt)
}

/**
 * Publishes the release if it is still scheduled and due by the clock now, inside the
 * transaction; false when there is nothing to do (unscheduled or published meanwhile). The
 * check and the publish are one serialized transaction, so a release is published once.
 */
async function publishIfDue(tx: TransactionBuilder, releaseId: string): Promise<boolean> {
  const release = tx.get(releaseDocumentId(releaseId))
  if (release?.state !== 'scheduled' || typeof release.publishAt !== 'string') return false
  if (Date.parse(release.publishAt) > Date.now()) return false
  await publishRelease(tx, releaseId, 0)
  return true
}

/**
 * Publishes each scheduled release at its `publishAt`, as the owner, through the lake's own
 * transactions (so the render cache, feeds and live events hear of it as of any publish).
 * State lives only in the release documents: after a restart or `kill -9` the releases due
 * meanwhile are published at `start` (and logged), the rest are timed again. Never early: the
 * clock is read inside the publishing transaction. Never twice: that transaction sets the state
 * to `published`, durably, before anyone hears of it.
 */
export class ReleaseScheduler {
  private readonly lake: Lake
  private readonly log: (line: string) => void
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = false
  private unsubscribe: (() => void) | undefined

  constructor(lake: Lake, log: (line: string) => void = (line) => console.log(line)) {
    this.lake = lake
    this.log = log
  }

  /** Publishes what fell due while the lake was down, then times the rest. */
  async start(): Promise<void> {
    this.unsubscribe = this.lake.onCommit((tx) => this.onCommit(tx))
    const overdue = scheduledReleases(this.lake).filter((due) => due.publishAt <= Date.now())
    for (const due of overdue)
      this.log(
        `[releases] release ${due.releaseId} was due at ${new Date(due.publishAt).toISOString()} while the lake was down: publishing it now`,
      )
    await this.tick()
  }

  stop(): void {
    this.stopped = true
    this.unsubscribe?.()
    clearTimeout(this.timer)
  }

  /** A commit that touched a release may have scheduled, unscheduled or published one. */
  private onCommit(tx: CommittedTransaction): void {
    if (tx.changes.some((change) => change.id.startsWith(releaseDocumentPrefix))) this.arm(0)
  }

  /** (Re)sets the timer to the earliest scheduled release, or to `delay` when given. */
  private arm(delay?: number): void {
    if (this.stopped) return
    clearTimeout(this.timer)
    const next = scheduledReleases(this.lake)[0]
    if (!next && delay === undefined) return
    const untilNext = next ? Math.max(0, next.publishAt - Date.now()) : Number.POSITIVE_INFINITY
    const sleep = Math.min(delay ?? untilNext, untilNext)
    this.timer = setTimeout(() => void this.tick(), Math.min(sleep, maxSleepMs))
    // The server's listeners keep the process alive; a pending publish alone does not.
    this.timer.unref()
  }

  /** Publishes every release due now, one transaction each, then times the next. */
  private tick(): Promise<void> {
    this.running ??= this.publishDue().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  private async publishDue(): Promise<void> {
    let failed = false
    for (const due of scheduledReleases(this.lake)) {
      if (this.stopped || due.publishAt > Date.now()) break
      try {
        const {value: published, committed} = await this.lake.transact({author: owner.id}, (tx) =>
          publishIfDue(tx, due.releaseId),
        )
        if (published && committed)
          this.log(
            `[releases] published release ${due.releaseId} (due ${new Date(due.publishAt).toISOString()}) in transaction ${committed.id} (${committed.changes.length} documents changed)`,
          )
      } catch (error) {
        failed = true
        this.log(
          `[releases] publishing release ${due.releaseId} failed: ${messageOf(error)}; retrying`,
        )
      }
    }
    this.arm(failed ? retryMs : undefined)
  }
}
