import {messageOf} from '../util/messageOf.ts'
import type {Batch, Tally} from './tally.ts'

/**
 * One write every 5 s at most: a page view costs a map update, not a SQLite transaction, and a
 * `kill -9` loses at most these seconds' counts (docs/reader-statistics.md).
 */
export const flushIntervalMs = 5_000

/** Where a batch goes: this process's StatsStore, or the content process (sender.ts). */
export type BatchSink = (batch: Batch) => void | Promise<void>

/**
 * Drains the tally into `sink` every `flushIntervalMs`, and once more on `stop` (a graceful stop
 * flushes first: server/start.ts closes the features after the listeners have drained).
 */
export class Flusher {
  private readonly timer: NodeJS.Timeout
  private running: Promise<void> = Promise.resolve()
  private readonly tally: Tally
  private readonly sink: BatchSink

  private readonly now: () => number

  constructor(tally: Tally, sink: BatchSink, intervalMs = flushIntervalMs, now = Date.now) {
    this.tally = tally
    this.sink = sink
    this.now = now
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  /** Writes what was counted so far; one write at a time, in order. */
  flush(): Promise<void> {
    this.running = this.running.then(async () => {
      const batch = this.tally.drain(this.now())
      // Nothing new, and no one live: nothing to send. Live visitors alone are sent, so a
      // restarted content process has the site processes' live figure back within one interval.
      if (batch.counts.length === 0 && batch.feeds.length === 0 && !batch.live?.seen.length) return
      try {
        await this.sink(batch)
      } catch (error) {
        console.error(`[stats] a batch could not be written: ${messageOf(error)}`)
      }
    })
    return this.running
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
