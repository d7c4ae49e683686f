import {AsyncLocalStorage} from 'node:async_hooks'
import type {DatabaseSync} from 'node:sqlite'
import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from '@fedify/fedify'
import {isRecord} from '../util/isRecord.ts'
import {numberColumn, textColumn} from './database.ts'

/** The message whose handler is running, for what Fedify's hooks are not told (its inbox). */
const running = new AsyncLocalStorage<unknown>()
export const runningMessage = (): unknown => running.getStore()

/** How long a delivery's key is remembered: longer than Fedify's whole retry schedule (12 h). */
const seenForMs = 30 * 24 * 3_600_000
/** An idle worker looks again this often even without a wake-up (a delayed retry falling due). */
const idleCheckMs = 30_000

export interface QueueOptions {
  db: DatabaseSync
  /** `inbox`, `outbox` or `fanout`: Fedify's three queues, rows of one table. */
  name: string
  /** Pause after each message: the bounded send rate of the outbox. */
  gapMs?: number
  /** Told at start of the messages a stop interrupted mid-run, which are run again. */
  onResumed?: (messages: unknown[]) => void
  now?: () => number
}

/**
 * The key that makes a message unique: Fedify's outbox message is one activity to one inbox at
 * one attempt, its fan-out message one activity to all. A second copy of either is dropped at
 * enqueue, so a fan-out run again after a crash queues no inbox twice.
 */
function dedupeKey(message: unknown): string | undefined {
  if (!isRecord(message) || typeof message.activityId !== 'string') return undefined
  if (message.type === 'outbox')
    return `outbox ${message.activityId} ${String(message.inbox)} ${String(message.attempt)}`
  if (message.type === 'fanout') return `fanout ${message.activityId}`
  return undefined
}

/** The key of the same delivery's next attempt: queued means this attempt's failure was handled. */
function nextAttemptKey(message: unknown): string | undefined {
  if (!isRecord(message) || message.type !== 'outbox' || typeof message.attempt !== 'number')
    return undefined
  return dedupeKey({...message, attempt: message.attempt + 1})
}

/**
 * Fedify's `MessageQueue` over the social database (database.ts): durable, one worker per queue,
 * in order of due time. A message is marked taken (committed, fsynced) before its handler runs
 * and deleted (acknowledged) once the handler returns: for an outbox delivery that is once the
 * inbox answered 2xx, or once its failure was handled (a retry queued, or given up).
 *
 * At the next start, what a crash (`kill -9`) left taken is run again: the delivery in flight
 * was never acknowledged, so the inbox may not have it. That is the one delivery that may reach
 * an inbox twice on the wire (the POST went out, the crash came before the acknowledgement); it
 * carries the same activity id both times, which the receiver deduplicates (Fedify's and
 * Mastodon's inboxes do), so each inbox takes each activity exactly once. One worker sends one
 * message at a time, so a crash repeats at most one POST. A taken delivery whose next attempt
 * is already queued (the crash came between queueing the retry and the acknowledgement) is not
 * run again: its retry carries it. A fan-out run again queues no inbox twice (dedupeKey), and
 * incoming activities run again are deduplicated by Fedify's idempotence check.
 *
 * Retries are Fedify's (`nativeRetrial` is false): a failed send is queued again as attempt n+1
 * with its backoff delay.
 */
export class SqliteMessageQueue implements MessageQueue {
  readonly nativeRetrial = false
  private readonly db: DatabaseSync
  private readonly name: string
  private readonly gapMs: number
  private readonly onResumed: (messages: unknown[]) => void
  private readonly now: () => number
  private wake: (() => void) | undefined

  constructor(options: QueueOptions) {
    this.db = options.db
    this.name = options.name
    this.gapMs = options.gapMs ?? 0
    this.onResumed = options.onResumed ?? (() => {})
    this.now = options.now ?? Date.now
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options)
  }

  async enqueueMany(
    messages: readonly unknown[],
    options?: MessageQueueEnqueueOptions,
  ): Promise<void> {
    const now = this.now()
    const delay = options?.delay ? Math.max(0, options.delay.total({unit: 'millisecond'})) : 0
    const seen = this.db.prepare('INSERT OR IGNORE INTO queue_seen (key, at) VALUES (?, ?)')
    const insert = this.db.prepare('INSERT INTO queue (name, message, due) VALUES (?, ?, ?)')
    this.db.exec('BEGIN IMMEDIATE')
    try {
      for (const message of messages) {
        const key = dedupeKey(message)
        if (key !== undefined && seen.run(key, now).changes === 0) continue
        insert.run(this.name, JSON.stringify(message), now + Math.round(delay))
      }
      this.db.exec('COMMIT')
    } catch (error) {
      this.db.exec('ROLLBACK')
      throw error
    }
    this.wake?.()
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const row = this.db
      .prepare(
        'SELECT count(*) AS queued, sum(due <= ?) AS ready FROM queue WHERE name = ? AND taken = 0',
      )
      .get(this.now(), this.name)
    const queued = numberColumn(row, 'queued') ?? 0
    const ready = numberColumn(row, 'ready') ?? 0
    return {queued, ready, delayed: queued - ready}
  }

  /** What a crash left taken: run again, unless its retry is already queued (class comment). */
  private recover(): void {
    this.db.prepare('DELETE FROM queue_seen WHERE at < ?').run(this.now() - seenForMs)
    const taken = this.db
      .prepare('SELECT id, message FROM queue WHERE name = ? AND taken = 1')
      .all(this.name)
    if (taken.length === 0) return
    const retried = this.db.prepare('SELECT 1 FROM queue_seen WHERE key = ?')
    const drop = this.db.prepare('DELETE FROM queue WHERE id = ?')
    const again = this.db.prepare('UPDATE queue SET taken = 0 WHERE id = ?')
    const resumed: unknown[] = []
    for (const row of taken) {
      const message: unknown = JSON.parse(textColumn(row, 'message'))
      const next = nextAttemptKey(message)
      if (next !== undefined && retried.get(next)) drop.run(numberColumn(row, 'id'))
      else {
        again.run(numberColumn(row, 'id'))
        resumed.push(message)
      }
    }
    if (resumed.length > 0) this.onResumed(resumed)
  }

  async listen(
    handler: (message: unknown) => Promise<void> | void,
    options: MessageQueueListenOptions = {},
  ): Promise<void> {
    const {signal} = options
    this.recover()
    const next = this.db.prepare(
      'SELECT id, message FROM queue WHERE name = ? AND taken = 0 AND due <= ? ORDER BY due, id LIMIT 1',
    )
    const nextDue = this.db.prepare(
      'SELECT min(due) AS due FROM queue WHERE name = ? AND taken = 0',
    )
    const take = this.db.prepare('UPDATE queue SET taken = 1 WHERE id = ?')
    const done = this.db.prepare('DELETE FROM queue WHERE id = ?')
    while (!signal?.aborted) {
      const row = next.get(this.name, this.now())
      if (!row) {
        const due = numberColumn(nextDue.get(this.name), 'due')
        await this.idle(
          due === null ? idleCheckMs : Math.min(idleCheckMs, due - this.now()),
          signal,
        )
        continue
      }
      const id = numberColumn(row, 'id')
      take.run(id)
      try {
        const message: unknown = JSON.parse(textColumn(row, 'message'))
        await running.run(message, () => handler(message))
      } catch (error) {
        console.error(`[social] a queued ${this.name} message failed`, error)
      }
      done.run(id)
      if (this.gapMs > 0) await this.idle(this.gapMs, signal, false)
    }
  }

  /** Waits `ms`, or less when something is queued (if `wakeable`) or listening stops. */
  private idle(ms: number, signal: AbortSignal | undefined, wakeable = true): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', finish)
        if (this.wake === finish) this.wake = undefined
        resolve()
      }
      const timer = setTimeout(finish, Math.max(0, ms))
      signal?.addEventListener('abort', finish)
      if (wakeable) this.wake = finish
    })
  }
}
