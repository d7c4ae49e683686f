import {setNewest} from '../../util/boundedMap.ts'
import {anonymousWorkers, badStandingMs, preemptAfterMs, type Lane} from './queryBudgets.ts'

/** What the schedule needs to know of a job, queued or running. */
export interface Scheduled {
  lane: Lane
  client: string
  queuedAt: number
  /** Set when a worker took it. */
  startedAt?: number
}

/** Most clients remembered in bad standing; beyond it the oldest are forgotten (memory bound). */
const maxRemembered = 10_000

/**
 * Who runs next on the query pool, and who makes room (queryPool.ts does the running). Trusted
 * work (the owner, the site's renders) goes first and may use every worker; anonymous work may
 * hold `anonymousWorkers` of them. Among anonymous jobs, clients in good standing go first, then
 * the client with the fewest running, then the oldest. A client whose query was stopped at its
 * budget is in bad standing for a while, so three clients sending runaways cannot keep a fourth
 * waiting: its query starts at the next free worker, or preempts a runaway past
 * `preemptAfterMs`.
 */
export class QuerySchedule {
  private readonly badUntil = new Map<string, number>()
  private readonly now: () => number

  constructor(now: () => number = Date.now) {
    this.now = now
  }

  /** Marks a client whose query was stopped at its budget. */
  penalise(client: string): void {
    setNewest(this.badUntil, client, this.now() + badStandingMs, maxRemembered)
  }

  inGoodStanding(client: string): boolean {
    const until = this.badUntil.get(client)
    if (until === undefined) return true
    if (until > this.now()) return false
    this.badUntil.delete(client)
    return true
  }

  /**
   * The queued job to start on a free worker, given what runs; undefined when none may. Jobs of
   * clients in bad standing run only on the worker that `takesSuspects` (queryPool.ts keeps that
   * the first), so the restarts their runaways cause never take the other workers away from the
   * owner, the site's renders and honest visitors.
   */
  next<J extends Scheduled>(
    queue: readonly J[],
    running: readonly Scheduled[],
    takesSuspects = true,
  ): J | undefined {
    const trusted = queue.find((job) => job.lane === 'trusted')
    if (trusted) return trusted
    const anonymousRunning = running.filter((job) => job.lane === 'anonymous')
    if (anonymousRunning.length >= anonymousWorkers) return undefined
    const perClient = new Map<string, number>()
    for (const job of anonymousRunning)
      perClient.set(job.client, (perClient.get(job.client) ?? 0) + 1)
    let best: J | undefined
    let bestRank: number[] = []
    for (const job of queue) {
      if (job.lane !== 'anonymous') continue
      const good = this.inGoodStanding(job.client)
      if (!good && !takesSuspects) continue
      const rank = [good ? 0 : 1, perClient.get(job.client) ?? 0, job.queuedAt]
      if (!best || compare(rank, bestRank) < 0) {
        best = job
        bestRank = rank
      }
    }
    return best
  }

  /**
   * The first waiting job that may make room for itself: a trusted job, or an anonymous one
   * from a client in good standing with nothing running.
   */
  private deserving(queue: readonly Scheduled[], running: readonly Scheduled[]) {
    const busy = new Set(running.map((job) => job.client))
    return queue.find(
      (job) => job.lane === 'trusted' || (this.inGoodStanding(job.client) && !busy.has(job.client)),
    )
  }

  /**
   * The running job to stop so that a deserving waiting job can start: the longest-running
   * anonymous job of another client, once past `preemptAfterMs`. `waitMs` says when to ask
   * again if none is past it yet.
   */
  victim<J extends Scheduled>(
    queue: readonly Scheduled[],
    running: readonly J[],
  ): {victim?: J; waitMs?: number} {
    const deserving = this.deserving(queue, running)
    if (!deserving) return {}
    const now = this.now()
    let victim: J | undefined
    let waitMs: number | undefined
    for (const job of running) {
      if (job.lane !== 'anonymous' || job.client === deserving.client) continue
      if (job.startedAt === undefined) continue
      const left = job.startedAt + preemptAfterMs - now
      if (left > 0) waitMs = Math.min(waitMs ?? left, left)
      else if (!victim || (victim.startedAt ?? 0) > job.startedAt) victim = job
    }
    return victim ? {victim} : {waitMs}
  }
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}
