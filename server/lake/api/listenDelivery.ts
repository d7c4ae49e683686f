import type {Lake} from '../lake.ts'
import {
  documentsToMatch,
  eventsFor,
  fromLog,
  type Filter,
  type ListenOptions,
} from '../events/listenEvents.ts'
import {viewThrough} from '../events/listenPerspective.ts'
import type {Lane} from '../queryPool/queryBudgets.ts'
import type {CommittedTransaction} from '../types.ts'
import type {SseStream} from './sse.ts'
import {safe} from '../../http/log.ts'
import {messageOf} from '../../util/messageOf.ts'
import {storeOf} from '../lake.ts'

/**
 * Transactions replayed per step on resume: one SQLite page and one evaluation on the pool per
 * step, so a long replay is many short turns of the event loop, never one long one.
 */
const replayChunk = 50

/**
 * Transactions a listener may have waiting for their filter verdicts. A listener further behind
 * than this (a flood of commits, or a filter the pool cannot keep up with) is closed; it can
 * resume with lastEventId.
 */
const maxBacklog = 1_000

export interface Listener {
  stream: SseStream
  filter: Filter
  options: ListenOptions
  lane: Lane
  client: string
  /** Budget of one filter evaluation (queryBudgets.ts). */
  filterTimeoutMs: number
  /** Whether the listener's token is still valid (a revoked session ends its streams). */
  stillAllowed(): boolean
}

/**
 * Delivers a listener's events in commit order, with the filter evaluated on the query pool: a
 * chain of steps per listener, each awaiting its verdicts. A failure (a filter over its budget,
 * a revoked token) ends the stream with `channelError`.
 */
export class ListenDelivery {
  private readonly lake: Lake
  private readonly listener: Listener
  private chain: Promise<void> = Promise.resolve()
  private backlog = 0

  constructor(lake: Lake, listener: Listener) {
    this.lake = lake
    this.listener = listener
  }

  /** Queues one committed transaction (live). */
  push(tx: CommittedTransaction): void {
    if (++this.backlog > maxBacklog) {
      this.fail(new Error(`More than ${maxBacklog} transactions behind; reconnect to resume`))
      return
    }
    this.then(async () => {
      this.backlog--
      await this.deliver([tx], 0)
    })
  }

  /**
   * Queues the replay of the log after `fromSeq` up to `toSeq` (the revision when the stream
   * opened; later commits arrive through `push`), skipping the first `skip` events of the first
   * transaction. Past `deadline` (ms since epoch) it gives up with `reset`: refetch.
   */
  replay(fromSeq: number, toSeq: number, skip: number, deadline: number): void {
    this.then(async () => {
      let cursor = fromSeq
      let skipFirst = skip
      while (cursor < toSeq) {
        if (Date.now() > deadline) {
          this.listener.stream.send('reset', {})
          this.listener.stream.close()
          return
        }
        const page = storeOf(this.lake)
          .transactionsSince(cursor, replayChunk)
          .filter((stored) => stored.seq <= toSeq)
        if (page.length === 0) return
        await this.deliver(
          page.map((stored) => fromLog(storeOf(this.lake), stored)),
          skipFirst,
        )
        skipFirst = 0
        cursor = page[page.length - 1].seq
      }
    })
  }

  private then(step: () => Promise<void>): void {
    this.chain = this.chain
      .then(() => (this.listener.stream.isClosed ? undefined : step()))
      .catch((error: unknown) => this.fail(error))
  }

  /** Evaluates the filter for `txs` in one pool task, then sends their events in order. */
  private async deliver(committed: CommittedTransaction[], skipFirst: number): Promise<void> {
    const {stream, filter, options} = this.listener
    const stack = options.perspective
    const store = storeOf(this.lake)
    const txs = stack
      ? committed.map((tx) => viewThrough(tx, stack, (id, seq) => store.documentAt(id, seq)))
      : committed
    const docs = txs.map((tx) => documentsToMatch(tx, options))
    const all = docs.flat()
    const verdicts =
      all.length === 0
        ? []
        : await this.lake.matchFilter(filter, all, {
            lane: this.listener.lane,
            client: this.listener.client,
            timeoutMs: this.listener.filterTimeoutMs,
          })
    if (stream.isClosed) return
    if (!this.listener.stillAllowed()) {
      stream.close()
      return
    }
    let offset = 0
    for (const [t, tx] of txs.entries()) {
      const mine = verdicts.slice(offset, offset + docs[t].length)
      offset += docs[t].length
      const events = eventsFor(tx, mine, options)
      events.forEach((event, index) => {
        if (t === 0 && index < skipFirst) return
        const id = index === events.length - 1 ? `${tx.seq}` : `${tx.seq}:${index + 1}`
        stream.send('mutation', event, id)
      })
    }
  }

  private fail(error: unknown): void {
    const {stream} = this.listener
    if (stream.isClosed) return
    const message = messageOf(error)
    console.warn(`[lake] listener of ${this.listener.client} stopped: ${safe(message)}`)
    stream.send('channelError', {message})
    stream.close()
  }
}
