import {safe} from '../../http/log.ts'
import {messageOf} from '../../util/messageOf.ts'
import {maxBackgroundTransforms} from './transformQueue.ts'

/** What the lake's other parts may ask of the image route: pre-rendering (prerender.ts). */
export interface ImageVariants {
  /**
   * Renders the variant `url` (`/images/…?…`) names for a browser sending `accept`, in the
   * background (transformQueue.ts `runInBackground`), unless it is cached or being rendered.
   * Never throws: a variant it could not render is one rendered on first request.
   */
  warm(url: string, accept: string): void
  /** Resolves once no background render is pending (tests, the bench). */
  idle(): Promise<void>
  /** Starts no more background renders (the server is stopping); one running finishes. */
  close(): void
}

/**
 * The bookkeeping of pre-rendering around `warmOne`: a bound on the renders waiting, one log
 * line per batch (a publish, an upload), who waits for the batch to end, and the stop.
 */
export class BackgroundWarming implements ImageVariants {
  private pending = 0
  private stopped = false
  /** Since the background work last began: how many renders were asked for, and when. */
  private batch = {asked: 0, start: 0}
  private idleWaiters: Array<() => void> = []

  private readonly warmOne: (url: string, accept: string) => Promise<void>

  constructor(warmOne: (url: string, accept: string) => Promise<void>) {
    this.warmOne = warmOne
  }

  /** Whether the server is stopping: a render whose turn comes then is not started. */
  get closed(): boolean {
    return this.stopped
  }

  warm(url: string, accept: string): void {
    // Past the background queue's bound nothing more would run: not even its lookups start
    // (a commit of a thousand posts with images must not read a thousand file headers at once).
    if (this.stopped || this.pending >= maxBackgroundTransforms) return
    if (this.pending === 0) this.batch = {asked: 0, start: performance.now()}
    this.pending++
    this.batch.asked++
    this.warmOne(url, accept)
      .catch((error: unknown) =>
        console.warn(`[images] cannot pre-render ${safe(url)}: ${messageOf(error)}`),
      )
      .finally(() => this.settled())
  }

  idle(): Promise<void> {
    return this.pending === 0
      ? Promise.resolve()
      : new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  close(): void {
    this.stopped = true
  }

  private settled(): void {
    this.pending--
    if (this.pending > 0) return
    // One line per batch: operators and the bench see it is done.
    const ms = Math.round(performance.now() - this.batch.start)
    console.log(
      `[images] pre-rendered ${this.batch.asked} variants (cached ones skipped) in ${ms} ms`,
    )
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }
}
