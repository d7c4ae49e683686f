import {Worker} from 'node:worker_threads'
import {LakeError} from '../errors.ts'
import {maxQueueWaitMs, poolSize, warmQuietMs, workerHeapMb, type Lane} from './queryBudgets.ts'
import {QuerySchedule} from './querySchedule.ts'
import type {
  ReplicaChange,
  WorkerReply,
  WorkerRequest,
  WorkerResult,
  WorkerTask,
  WarmQuery,
} from './queryWorker.ts'

export interface RunOptions {
  lane: Lane
  /** The caller's client key (server/http/clientAddress.ts), for fairness among anonymous. */
  client: string
  /** Budget from the moment a worker takes the task; over it the worker is terminated. */
  timeoutMs: number
}

interface Job extends RunOptions {
  id: number
  task: WorkerTask
  queuedAt: number
  startedAt?: number
  resolve(result: WorkerResult): void
  reject(error: LakeError): void
  timer?: NodeJS.Timeout
}

interface Slot {
  worker: Worker
  ready: boolean
  job?: Job
  /** Committed changes not yet posted to this worker (`apply`), oldest first. */
  unsent: ReplicaChange[]
  /** Their JSON's length in characters, for the bound below. */
  unsentChars: number
}

/**
 * A worker hears of commits when it is next given work (a task or a warm-up), not at each
 * commit: posting to a sleeping worker wakes its thread, which on the 2-core machine cost the
 * main thread more than the rest of a sequential write's mirroring (bench/lakeWrites.ts). The
 * worker itself only files changes until something reads its replica (queryWorker.ts
 * `pending`), so sooner posting bought nothing. Past these bounds the changes are posted anyway,
 * so a long burst without queries holds no more than this per worker on the main thread.
 */
const maxUnsentChanges = 1024
const maxUnsentChars = 4 * 1024 * 1024

/** After a worker fails while starting, wait this long before the next start (no crash loop). */
const restartDelayMs = 1_000
/**
 * Repeated failures back off up to this: a worker that cannot start (its database gone, the
 * disk unreadable) must not spin a restart loop that floods the log and takes a core.
 */
const maxRestartDelayMs = 60_000

/**
 * The query pool: up to `poolSize` workers (queryWorker.ts), each a replica of the documents,
 * each running one task at a time, so that a task over its budget is stopped by terminating its
 * worker, and only that task is lost. A task is sent to a worker once, and its budget runs from
 * then: a restart never re-arms or extends another task's budget, and a task whose worker
 * crashed (out of memory) is answered with an error, never sent again. Who runs next and who
 * makes room is querySchedule.ts's decision.
 */
export class QueryPool {
  private readonly slots: Slot[] = []
  private readonly queue: Job[] = []
  private readonly schedule = new QuerySchedule()
  private readonly database: () => string
  private readonly size: number
  /** What the workers prepare ahead (LakeOptions.warmQuery); none: they never warm. */
  private readonly warm: WarmQuery | undefined
  private nextId = 1
  private preemptTimer: NodeJS.Timeout | undefined
  private restartTimer: NodeJS.Timeout | undefined
  /** Idle failures since a worker last became ready; sets the restart back-off. */
  private failuresInRow = 0
  private closed = false

  constructor(options: {database: () => string; size?: number; warm?: WarmQuery}) {
    this.database = options.database
    this.size = options.size ?? poolSize
    this.warm = options.warm
  }

  /** Runs `task` on a worker within its budget; rejects with a Sanity-shaped LakeError. */
  run(task: WorkerTask, options: RunOptions): Promise<WorkerResult> {
    if (this.closed) return Promise.reject(shuttingDown())
    return new Promise<WorkerResult>((resolve, reject) => {
      const job: Job = {...options, id: this.nextId++, task, queuedAt: Date.now(), resolve, reject}
      job.timer = setTimeout(() => this.expireWaiting(job), maxQueueWaitMs)
      this.queue.push(job)
      this.pump()
    })
  }

  /**
   * Mirrors committed changes into every replica; tasks sent after this see them: each worker
   * gets them, in order, before its next task or warm-up (`post`), or once they pass the bounds.
   */
  apply(changes: ReplicaChange[]): void {
    if (changes.length === 0) return
    let chars = 0
    for (const change of changes) chars += change.json?.length ?? 0
    for (const slot of this.slots) {
      for (const change of changes) slot.unsent.push(change)
      slot.unsentChars += chars
      if (slot.unsent.length >= maxUnsentChanges || slot.unsentChars >= maxUnsentChars)
        this.sendChanges(slot)
    }
    this.lastChangeAt = Date.now()
    if (this.warm) this.warmWhenQuiet()
  }

  /** Posts `request` to the slot's worker after the changes it has not been sent yet. */
  private post(slot: Slot, request: WorkerRequest): void {
    this.sendChanges(slot)
    slot.worker.postMessage(request)
  }

  private sendChanges(slot: Slot): void {
    if (slot.unsent.length === 0) return
    slot.worker.postMessage({type: 'apply', changes: slot.unsent} satisfies WorkerRequest)
    slot.unsent = []
    slot.unsentChars = 0
  }

  /** Clients currently in bad standing are deprioritised (querySchedule.ts). */
  penalise(client: string): void {
    this.schedule.penalise(client)
  }

  /**
   * Workers that have loaded their replica, and how many of them run a task now: /readyz
   * (server/http/readiness.ts) tells "busy" from "down" by it.
   */
  status(): {ready: number; busy: number} {
    const ready = this.slots.filter((slot) => slot.ready)
    return {ready: ready.length, busy: ready.filter((slot) => slot.job).length}
  }

  private running(): Job[] {
    return this.slots.flatMap((slot) => (slot.job ? [slot.job] : []))
  }

  /** Starts what can start; makes room or starts a worker for what cannot. */
  private pump(): void {
    if (this.closed) return
    for (let started = true; started;) {
      started = false
      for (const [index, slot] of this.slots.entries()) {
        if (!slot.ready || slot.job) continue
        // The first worker is the one that takes clients in bad standing (querySchedule.ts).
        const job = this.schedule.next(this.queue, this.running(), index === 0)
        if (!job) continue
        this.start(slot, job)
        started = true
      }
    }
    clearTimeout(this.preemptTimer)
    this.preemptTimer = undefined
    if (this.queue.length === 0) return
    // Under load every worker is wanted: start them all at once rather than one per wait.
    if (this.slots.length < this.size && !this.restartTimer) {
      while (this.slots.length < this.size) this.spawn()
      return
    }
    // Stopping a job helps only if the waiting one can then run somewhere: on a ready worker
    // (the one anonymous work may not hold), or on the victim's once no other is starting.
    const readyFree = this.slots.some((slot) => slot.ready && !slot.job)
    const booting = this.slots.some((slot) => !slot.ready)
    if (!readyFree && booting) return
    const {victim, waitMs} = this.schedule.victim(this.queue, this.running())
    if (victim) this.stop(victim, 'other queries were waiting for a worker')
    else if (waitMs !== undefined) {
      this.preemptTimer = setTimeout(() => this.pump(), waitMs + 1)
      this.preemptTimer.unref()
    }
  }

  private start(slot: Slot, job: Job): void {
    this.queue.splice(this.queue.indexOf(job), 1)
    clearTimeout(job.timer)
    slot.job = job
    job.startedAt = Date.now()
    job.timer = setTimeout(() => this.stop(job, undefined), job.timeoutMs)
    this.post(slot, {type: 'task', id: job.id, task: job.task})
  }

  private spawn(slot?: Slot): void {
    const worker = new Worker(new URL('./queryWorker.ts', import.meta.url), {
      resourceLimits: {maxOldGenerationSizeMb: workerHeapMb},
    })
    worker.unref()
    const target: Slot = slot ?? {worker, ready: false, unsent: [], unsentChars: 0}
    target.worker = worker
    target.ready = false
    target.job = undefined
    if (!slot) this.slots.push(target)
    worker.on('message', (reply: WorkerReply) => {
      if (target.worker !== worker) return
      if ('ready' in reply) {
        target.ready = true
        this.failuresInRow = 0
        if (this.warm) this.warmWaiting.push(worker)
        this.nextWarm()
        this.pump()
      } else if ('warmed' in reply) {
        if (this.warmingWorker === worker) this.warmingWorker = undefined
        this.nextWarm()
      } else this.settle(target, reply)
    })
    worker.on('error', (error) => this.failed(target, worker, error))
    worker.on('exit', () => this.failed(target, worker, new Error('query worker exited')))
    worker.postMessage({
      type: 'load',
      database: this.database(),
      warm: this.warm,
    } satisfies WorkerRequest)
  }

  /**
   * Workers warm up the site's search (queryWorker.ts `warmSearch`, the query the wiring hands
   * in) one at a time: each costs
   * about a second of CPU at 10k posts, and all of them at once on two cores left the first
   * searches waiting seconds. The same after a burst of writes: three workers re-folding the new
   * posts at once took both cores from the writers (bench/lakeWrites.ts: 243 creates/s instead
   * of ~2,000 in the step after a burst). A worker that ends while warming never answers; the next ready
   * worker's turn comes anyway.
   */
  private warmingWorker: Worker | undefined
  private readonly warmWaiting: Worker[] = []
  private lastChangeAt = 0
  private quietTimer: NodeJS.Timeout | undefined

  /**
   * After changes, once the replicas have gone `warmQuietMs` without one, every ready worker
   * warms the search again, one at a time as at start. One timer for a burst, not one per commit.
   */
  private warmWhenQuiet(): void {
    if (this.quietTimer || this.closed) return
    const check = () => {
      const quietFor = Date.now() - this.lastChangeAt
      if (quietFor < warmQuietMs) {
        this.quietTimer = setTimeout(check, warmQuietMs - quietFor).unref()
        return
      }
      this.quietTimer = undefined
      for (const slot of this.slots)
        if (
          slot.ready &&
          slot.worker !== this.warmingWorker &&
          !this.warmWaiting.includes(slot.worker)
        )
          this.warmWaiting.push(slot.worker)
      this.nextWarm()
    }
    this.quietTimer = setTimeout(check, warmQuietMs).unref()
  }

  private nextWarm(): void {
    const alive = (worker: Worker) => this.slots.some((slot) => slot.worker === worker)
    if (this.warmingWorker && alive(this.warmingWorker)) return
    this.warmingWorker = undefined
    for (let worker = this.warmWaiting.shift(); worker; worker = this.warmWaiting.shift()) {
      const slot = this.slots.find((s) => s.worker === worker)
      if (!slot) continue
      this.warmingWorker = worker
      // Warming reads the replica: it gets the changes first.
      this.post(slot, {type: 'warm'})
      return
    }
  }

  private settle(slot: Slot, reply: Exclude<WorkerReply, {ready: true} | {warmed: true}>): void {
    const job = slot.job
    if (!job || job.id !== reply.id) return
    slot.job = undefined
    clearTimeout(job.timer)
    if ('result' in reply) job.resolve(reply.result)
    else {
      const {status, type, description, details} = reply.error
      job.reject(new LakeError(status, type, description, details))
    }
    this.pump()
  }

  /** Stops a running job: its worker is terminated and replaced; the job is answered 400. */
  private stop(job: Job, reason: string | undefined): void {
    const slot = this.slots.find((s) => s.job === job)
    if (!slot) return
    clearTimeout(job.timer)
    const ran = Date.now() - (job.startedAt ?? Date.now())
    if (job.lane === 'anonymous') this.schedule.penalise(job.client)
    job.reject(queryTimeout(ran, job.timeoutMs, reason))
    this.replace(slot)
    // The waiting job may start at once on another ready worker, not after this one's restart.
    this.pump()
  }

  private replace(slot: Slot): void {
    const old = slot.worker
    slot.job = undefined
    this.spawn(slot)
    void old.terminate()
  }

  /** A worker died on its own (out of memory, or failed to start). Its task is not re-sent. */
  private failed(slot: Slot, worker: Worker, error: unknown): void {
    if (slot.worker !== worker || this.closed) return
    const job = slot.job
    slot.job = undefined
    if (job) {
      clearTimeout(job.timer)
      if (job.lane === 'anonymous') this.schedule.penalise(job.client)
      job.reject(crashed(error))
      this.replace(slot)
      this.pump()
      return
    }
    const delayMs = Math.min(restartDelayMs * 2 ** this.failuresInRow++, maxRestartDelayMs)
    // Only the first failure of a run is logged in full; the rest say how long the wait is.
    if (this.failuresInRow === 1)
      console.error('[lake] a query worker failed while idle; starting another shortly', error)
    else console.error(`[lake] a query worker failed again; next start in ${delayMs / 1000} s`)
    this.slots.splice(this.slots.indexOf(slot), 1)
    void worker.terminate()
    this.restartTimer ??= setTimeout(() => {
      this.restartTimer = undefined
      this.pump()
    }, delayMs)
  }

  private expireWaiting(job: Job): void {
    const index = this.queue.indexOf(job)
    if (index < 0) return
    this.queue.splice(index, 1)
    job.reject(
      new LakeError(
        503,
        'serviceUnavailable',
        `Every query worker stayed busy for ${maxQueueWaitMs / 1000} s; retry shortly`,
      ),
    )
  }

  close(): void {
    this.closed = true
    clearTimeout(this.preemptTimer)
    clearTimeout(this.restartTimer)
    clearTimeout(this.quietTimer)
    for (const job of [...this.queue, ...this.running()]) {
      clearTimeout(job.timer)
      job.reject(shuttingDown())
    }
    this.queue.length = 0
    for (const slot of this.slots.splice(0)) void slot.worker.terminate()
  }
}

function shuttingDown(): LakeError {
  return new LakeError(503, 'serviceUnavailable', 'The lake is shutting down')
}

/** A 4xx that @sanity/client does not retry (it retries 5xx and 429 only). */
function queryTimeout(ranMs: number, budgetMs: number, reason: string | undefined): LakeError {
  const why = reason
    ? `Query was stopped after ${ranMs} ms because ${reason}`
    : `Query ran longer than the time limit (${budgetMs} ms) and was stopped`
  return new LakeError(400, 'queryTimeout', `${why}; narrow the filter or add a slice`)
}

function crashed(error: unknown): LakeError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : ''
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new LakeError(
      400,
      'queryTooExpensive',
      'Query needed more memory than a query may use and was stopped; narrow the filter or add a slice',
    )
  }
  return new LakeError(500, 'internalServerError', 'The query worker failed')
}
