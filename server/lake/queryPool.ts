import {Worker} from 'node:worker_threads'
import {LakeError} from './errors.ts'
import type {Perspective} from './perspective.ts'
import type {WorkerReply, WorkerRequest} from './queryWorker.ts'
import type {Doc} from './types.ts'

type QueryMessage = Extract<WorkerRequest, {type: 'query'}>

interface Pending {
  message: QueryMessage
  resolve(json: string): void
  reject(error: LakeError): void
  timer?: NodeJS.Timeout
}

export interface QueryRequest {
  query: string
  params: Record<string, unknown>
  perspective: Perspective
  authenticated: boolean
}

interface RunnerOptions {
  timeoutMs: number
  maxResultBytes: number
  sanity: {projectId: string; dataset: string}
}

/**
 * Runs queries on a worker thread (queryWorker.ts) that mirrors the committed documents, so that
 * a query over its time limit can really be stopped: the worker is terminated and replaced, the
 * caller gets a 400 queryTimeout, and the other queries in flight go to the new worker.
 */
export class QueryRunner {
  private worker: Worker | undefined
  private ready = false
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private readonly snapshot: () => Doc[]
  private readonly options: RunnerOptions

  constructor(snapshot: () => Doc[], options: RunnerOptions) {
    this.snapshot = snapshot
    this.options = options
  }

  private start(): void {
    const worker = new Worker(new URL('./queryWorker.ts', import.meta.url))
    worker.unref()
    worker.on('message', (reply: WorkerReply) => {
      if (worker !== this.worker) return
      if ('ready' in reply) {
        this.ready = true
        for (const pending of this.pending.values()) this.dispatch(pending)
      } else this.settle(reply)
    })
    worker.on('error', (error) => {
      if (worker !== this.worker) return
      console.error('[lake] query worker failed; starting a new one', error)
      this.restart()
    })
    this.worker = worker
    this.ready = false
    worker.postMessage({type: 'load', docs: this.snapshot()} satisfies WorkerRequest)
  }

  /** Sends a query to the ready worker; its time limit runs from here. */
  private dispatch(pending: Pending): void {
    clearTimeout(pending.timer)
    this.worker?.postMessage(pending.message)
    pending.timer = setTimeout(() => this.expire(pending), this.options.timeoutMs)
  }

  private expire(pending: Pending): void {
    this.pending.delete(pending.message.id)
    console.warn(
      `[lake] query stopped after ${this.options.timeoutMs} ms: ${pending.message.query.slice(0, 200)}`,
    )
    pending.reject(
      new LakeError(
        400,
        'queryTimeout',
        `Query ran longer than the time limit (${this.options.timeoutMs} ms) and was stopped; narrow the filter or add a slice`,
      ),
    )
    this.restart()
  }

  private settle(reply: Exclude<WorkerReply, {ready: true}>): void {
    const pending = this.pending.get(reply.id)
    if (!pending) return
    this.pending.delete(reply.id)
    clearTimeout(pending.timer)
    if ('json' in reply) pending.resolve(reply.json)
    else
      pending.reject(
        new LakeError(
          reply.error.status,
          reply.error.type,
          reply.error.description,
          reply.error.details,
        ),
      )
  }

  /** Replaces the worker; queries still in flight are re-sent once the new one is ready. */
  private restart(): void {
    void this.worker?.terminate()
    this.worker = undefined
    for (const pending of this.pending.values()) clearTimeout(pending.timer)
    if (this.pending.size > 0) this.start()
  }

  /** Evaluates a query to its result's JSON text. */
  run(request: QueryRequest): Promise<string> {
    if (!this.worker) this.start()
    const id = this.nextId++
    const message: QueryMessage = {
      type: 'query',
      id,
      ...request,
      maxResultBytes: this.options.maxResultBytes,
      sanity: this.options.sanity,
    }
    return new Promise<string>((resolve, reject) => {
      const pending: Pending = {message, resolve, reject}
      this.pending.set(id, pending)
      if (this.ready) this.dispatch(pending)
    })
  }

  /** Mirrors a committed transaction; queries sent after this see it. */
  apply(changes: Array<{id: string; after: Doc | null}>): void {
    this.worker?.postMessage({type: 'apply', changes} satisfies WorkerRequest)
  }

  close(): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer)
      pending.reject(new LakeError(503, 'serviceUnavailable', 'The lake is shutting down'))
    }
    this.pending.clear()
    void this.worker?.terminate()
    this.worker = undefined
  }
}
