import type {LiveEvent} from '@sanity/client'
import type {Observable} from 'rxjs'

/**
 * Where the process stands with the content store's live events:
 * - `connecting`: no `welcome` yet; nothing may be cached (a change could go unseen).
 * - `live`: events arrive; cached pages are fresh until a message names one of their tags.
 * - `reconnecting`: the stream dropped and EventSource is coming back with its position
 *   (Last-Event-ID); cached pages are as fresh as the last event seen, no new ones are stored.
 * - `down`: the stream failed for good (an error, `goaway`, a refused connection); everything
 *   was dropped and a new subscription is tried after a backoff.
 */
export type ContentEventsState = 'connecting' | 'live' | 'reconnecting' | 'down'

/** What a cache must do after an event. */
export type ContentChange =
  /** Drop what was built from answers carrying any of these sync tags. */
  | {kind: 'tags'; tags: string[]}
  /** The position was lost (restart, a fresh stream, a failure): drop everything. */
  | {kind: 'reset'}

export interface ContentEventsOptions {
  /** First wait before resubscribing after a failure; doubled per failure in a row. */
  minBackoffMs?: number
  maxBackoffMs?: number
}

/** `{resumedFrom}` on a welcome: the lake honoured Last-Event-ID (server/lake/api/liveEvents.ts). */
function resumedFrom(event: LiveEvent): string | undefined {
  const data: unknown = 'data' in event ? event.data : undefined
  if (typeof data !== 'object' || data === null || !('resumedFrom' in data)) return undefined
  return typeof data.resumedFrom === 'string' ? data.resumedFrom : undefined
}

/** An event's SSE id: typed on messages and restarts only, though every event carries it. */
function idOf(event: LiveEvent): string | undefined {
  const id: unknown = 'id' in event ? event.id : undefined
  return typeof id === 'string' && id !== '' ? id : undefined
}

/**
 * One subscription per process to the content store's live events (`client.live.events()`,
 * the same in local and hosted mode), turned into cache decisions for the render cache and
 * discovery. Sync tags are treated as opaque. Anything that may have lost a change (a
 * `restart`, a second `welcome` that does not say it resumed from our last position, `goaway`,
 * a stream error) resets every cache; a failed stream is resubscribed with a backoff.
 */
export class ContentEvents {
  private stateNow: ContentEventsState = 'connecting'
  private lastId: string | undefined
  private readonly listeners = new Set<(change: ContentChange) => void>()
  private readonly stateListeners = new Set<(state: ContentEventsState) => void>()
  private subscription: {unsubscribe(): void} | undefined
  private retryTimer: NodeJS.Timeout | undefined
  private failures = 0
  private welcomed = false
  private closed = false
  private open: (() => Observable<LiveEvent>) | undefined
  private readonly minBackoffMs: number
  private readonly maxBackoffMs: number
  /** Counts, for the health route and the bench. */
  readonly counts = {messages: 0, resets: 0, failures: 0}
  /** In one process with the lake: the seq of its last public commit (see `upToDate`). */
  private committed: (() => number) | undefined
  private readonly waiters = new Set<{position: number; done: (reached: boolean) => void}>()

  constructor(options: ContentEventsOptions = {}) {
    this.minBackoffMs = options.minBackoffMs ?? 1_000
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000
  }

  /** Subscribes through `open` (known only once the process listens, in local mode). */
  start(open: () => Observable<LiveEvent>): void {
    if (this.closed || this.open) return
    this.open = open
    this.subscribe()
  }

  get state(): ContentEventsState {
    return this.stateNow
  }

  /** The id of the last event seen, for `lastLiveEventId` on the next queries. */
  get lastEventId(): string | undefined {
    return this.lastId
  }

  /** Whether pages may be stored now. */
  get live(): boolean {
    return this.stateNow === 'live'
  }

  /**
   * In the default single process the lake is right here, so a visitor who has just published
   * can be shown their change on the very next request: `committed()` is the seq of the lake's
   * last public commit, and `upToDate()` waits (briefly) until the stream has delivered it.
   * Invalidation still comes from the stream alone; this only closes the loopback's delay.
   */
  followCommits(committed: () => number): void {
    this.committed = committed
  }

  /**
   * Whether the caches may answer now: true at once unless this process's own lake has committed
   * something public the stream has not delivered yet; then a promise of whether it arrived
   * within `timeoutMs` (if not, the caller renders afresh).
   */
  upToDate(timeoutMs = 1_000): true | Promise<boolean> {
    const position = this.committed?.()
    // Not live: the caches are not trusted anyway, and a stream that is away must not make
    // every request wait.
    if (position === undefined || !this.live || this.reached(position)) return true
    return new Promise((resolve) => {
      const waiter = {
        position,
        done: (reached: boolean) => {
          clearTimeout(timer)
          this.waiters.delete(waiter)
          resolve(reached)
        },
      }
      const timer = setTimeout(() => waiter.done(false), timeoutMs)
      this.waiters.add(waiter)
    })
  }

  private reached(position: number): boolean {
    return this.lastId !== undefined && /^\d+$/.test(this.lastId) && Number(this.lastId) >= position
  }

  onChange(listener: (change: ContentChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  onState(listener: (state: ContentEventsState) => void): () => void {
    this.stateListeners.add(listener)
    return () => this.stateListeners.delete(listener)
  }

  close(): void {
    this.closed = true
    for (const waiter of [...this.waiters]) waiter.done(false)
    clearTimeout(this.retryTimer)
    this.subscription?.unsubscribe()
    this.subscription = undefined
  }

  private subscribe(): void {
    if (this.closed || !this.open) return
    let observable: Observable<LiveEvent>
    try {
      observable = this.open()
    } catch (error) {
      this.fail(error)
      return
    }
    this.subscription = observable.subscribe({
      next: (event) => this.handle(event),
      error: (error: unknown) => this.fail(error),
      complete: () => this.fail(new Error('the live event stream ended')),
    })
  }

  private handle(event: LiveEvent): void {
    switch (event.type) {
      case 'welcome': {
        // A later welcome is a new connection: fine only if it resumed exactly where we were.
        const lossless = this.lastId !== undefined && resumedFrom(event) === this.lastId
        if (this.welcomed && !lossless) this.emit({kind: 'reset'})
        this.welcomed = true
        this.lastId = idOf(event)
        this.failures = 0
        this.setState('live')
        this.wake()
        return
      }
      case 'message':
        this.lastId = event.id
        this.counts.messages++
        this.emit({kind: 'tags', tags: event.tags})
        return
      case 'restart':
        this.lastId = event.id
        this.emit({kind: 'reset'})
        this.setState('live')
        return
      case 'reconnect':
        if (this.stateNow === 'live') this.setState('reconnecting')
        return
      case 'goaway':
        // "Switch to polling": this process has no poll, so it serves uncached until a new
        // subscription is welcomed.
        this.fail(new Error('the content store sent goaway'))
        return
    }
  }

  private fail(error: unknown): void {
    this.subscription?.unsubscribe()
    this.subscription = undefined
    if (this.closed) return
    this.counts.failures++
    const delay = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** this.failures)
    this.failures++
    console.warn(
      `[live] content events failed (${error instanceof Error ? error.message : String(error)}); ` +
        `serving uncached, resubscribing in ${delay} ms`,
    )
    // Down first: a reset while down keeps copies to show if renders fail (server/render/handler.ts).
    this.setState('down')
    this.emit({kind: 'reset'})
    this.retryTimer = setTimeout(() => this.subscribe(), delay)
    this.retryTimer.unref()
  }

  private emit(change: ContentChange): void {
    if (change.kind === 'reset') this.counts.resets++
    for (const listener of this.listeners) listener(change)
    this.wake()
  }

  /** After the caches have acted on an event: whoever waited for its position may go on. */
  private wake(): void {
    for (const waiter of [...this.waiters]) if (this.reached(waiter.position)) waiter.done(true)
  }

  private setState(state: ContentEventsState): void {
    if (state === this.stateNow) return
    this.stateNow = state
    for (const listener of this.stateListeners) listener(state)
  }
}
