/**
 * Image transforms run through one bounded queue: libvips work is CPU the site's pages need, and
 * a transform is the most expensive thing an anonymous request can ask for.
 */

/**
 * Transforms at once. One, on the 2-core machine the site targets: the other core stays with
 * the event loop (pages, queries), and a second transform would only halve the speed of each.
 */
export const maxConcurrentTransforms = 1
/**
 * Transforms waiting, from everyone. At ~0.5 s for the largest allowed output, the last one
 * waits a few seconds at worst; past that a 503 says to come back rather than queueing further.
 */
export const maxWaitingTransforms = 32
/**
 * Transforms running or waiting per client (they wait in the client's own line, served in turn
 * with every other client's: `TransformQueue`). The Studio opens a document list with a dozen or
 * more thumbnails at once (HTTP/2 sends them together), so this is not tighter; one client can
 * hold half the queue, never all of it.
 */
export const maxTransformsPerClient = 16
/**
 * Background transforms waiting (pre-rendering a published post's variants, prerender.ts). They
 * run only when no visitor's transform runs or waits; past this many waiting, more are dropped:
 * a dropped one is only a variant rendered on first request instead.
 */
export const maxBackgroundTransforms = 256
/** What a refused client is told to wait (Retry-After): about what the queue takes to drain. */
export const transformRetryAfterSeconds = 2

/** The queue refused a task: `client` over its share (429), or everyone's queue full (503). */
export class QueueFullError extends Error {
  readonly scope: 'client' | 'server'

  constructor(scope: 'client' | 'server') {
    super(
      scope === 'client'
        ? `Too many image transforms from this client at once (at most ${maxTransformsPerClient})`
        : 'The image transform queue is full',
    )
    this.scope = scope
  }
}

export interface QueueLimits {
  concurrency: number
  waiting: number
  perClient: number
}

/**
 * One slot (or `concurrency`) for every client's transforms, handed out round-robin: each client
 * with work waiting has its own first-in-first-out line, and the slot goes to the next client's
 * next task in turn. A client that queued sixteen transforms first no longer makes every other
 * reader wait behind all sixteen: a newcomer's one variant starts after at most one task of each
 * client ahead of it (security review 3, M2: with one FIFO, two greedy clients kept an honest
 * reader's cold variant waiting 18.9 s).
 */
export class TransformQueue {
  private readonly limits: QueueLimits
  private running = 0
  /** Waiting tasks by client; Map order is the round (the client served next is first). */
  private readonly lines = new Map<string, Array<() => void>>()
  private waitingCount = 0
  private readonly background: Array<() => void> = []
  private readonly perClient = new Map<string, number>()

  constructor(
    limits: QueueLimits = {
      concurrency: maxConcurrentTransforms,
      waiting: maxWaitingTransforms,
      perClient: maxTransformsPerClient,
    },
  ) {
    this.limits = limits
  }

  /** Tasks running now, waiting, and waiting in the background. */
  get load(): {running: number; waiting: number; background: number} {
    return {running: this.running, waiting: this.waitingCount, background: this.background.length}
  }

  /** The next client's next task (that client then goes to the back of the round). */
  private nextWaiting(): (() => void) | undefined {
    for (const [client, line] of this.lines) {
      const next = line.shift()
      this.lines.delete(client)
      if (line.length > 0) this.lines.set(client, line)
      if (next) {
        this.waitingCount--
        return next
      }
    }
    return undefined
  }

  /** Hands the slot to the next visitor's task, else the next background one, else frees it. */
  private release(): void {
    // The slot passes straight to the next waiter, so `running` never drops in between.
    const next = this.nextWaiting() ?? this.background.shift()
    if (next) next()
    else this.running--
  }

  /**
   * Runs `task` at low priority: only when no visitor's task is running or waiting, so a page's
   * images never wait behind it for more than the one background task already running. Returns
   * undefined without running it when the background backlog is full.
   */
  async runInBackground<T>(task: () => Promise<T>): Promise<T | undefined> {
    if (this.running >= this.limits.concurrency || this.waitingCount > 0) {
      if (this.background.length >= maxBackgroundTransforms) return undefined
      await new Promise<void>((resolve) => this.background.push(resolve))
    } else this.running++
    try {
      return await task()
    } finally {
      this.release()
    }
  }

  /** Runs `task` when `client`'s turn comes; throws QueueFullError at once if it may not wait. */
  async run<T>(client: string, task: () => Promise<T>): Promise<T> {
    const held = this.perClient.get(client) ?? 0
    if (held >= this.limits.perClient) throw new QueueFullError('client')
    const mustWait = this.running >= this.limits.concurrency
    if (mustWait && this.waitingCount >= this.limits.waiting) throw new QueueFullError('server')
    this.perClient.set(client, held + 1)
    try {
      if (mustWait) {
        await new Promise<void>((resolve) => {
          const line = this.lines.get(client)
          if (line) line.push(resolve)
          else this.lines.set(client, [resolve])
          this.waitingCount++
        })
      } else this.running++
      try {
        return await task()
      } finally {
        this.release()
      }
    } finally {
      const left = (this.perClient.get(client) ?? 1) - 1
      if (left > 0) this.perClient.set(client, left)
      else this.perClient.delete(client)
    }
  }
}
