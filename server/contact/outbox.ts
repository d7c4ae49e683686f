import type {Inbox} from './inbox.ts'
import type {Deliver} from './mailer.ts'
import {backoffDelay, type BackoffOptions, defaultBackoff} from '../util/backoff.ts'
import {messageOf} from '../util/messageOf.ts'

/**
 * Mails stored messages one at a time and retries failures with exponential backoff, forever:
 * a message is never dropped, only shown as `failed` with its last error until it goes through.
 * State lives in the lake, so `start()` after a restart picks up every pending or failed one.
 * At-least-once: `sent` is written right after the SMTP server accepts; a crash in between
 * resends that one message once on the next start (docs/contact.md).
 */
export class Outbox {
  private readonly inbox: Inbox
  private readonly deliver: Deliver
  private readonly backoff: Required<BackoffOptions>
  /** Message id → when (ms since epoch) to try it next. */
  private readonly due = new Map<string, number>()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private readonly abort = new AbortController()

  constructor(inbox: Inbox, deliver: Deliver, backoff: BackoffOptions = {}) {
    this.inbox = inbox
    this.deliver = deliver
    this.backoff = {...defaultBackoff, ...backoff}
  }

  /** Queues every message the lake still holds as pending or failed (after a restart). */
  async start(): Promise<void> {
    const outstanding = await this.inbox.outstanding()
    // A message may have arrived and failed while the lake was read: keep its backoff.
    for (const id of outstanding) if (!this.due.has(id)) this.due.set(id, Date.now())
    this.schedule()
  }

  /** Queues a newly stored message for immediate delivery. */
  enqueue(id: string): void {
    if (this.abort.signal.aborted) return
    this.due.set(id, Date.now())
    this.schedule()
  }

  private schedule(): void {
    if (this.running || this.abort.signal.aborted || this.due.size === 0) return
    clearTimeout(this.timer)
    const next = Math.min(...this.due.values())
    this.timer = setTimeout(
      () => {
        this.running = this.drain().finally(() => {
          this.running = undefined
          this.schedule()
        })
      },
      Math.max(0, next - Date.now()),
    )
  }

  /** Delivers everything that is due, oldest first; new arrivals join while it runs. */
  private async drain(): Promise<void> {
    for (;;) {
      if (this.abort.signal.aborted) return
      const now = Date.now()
      const ready = [...this.due].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1])
      if (ready.length === 0) return
      for (const [id] of ready) {
        if (this.abort.signal.aborted) return
        await this.attempt(id)
      }
    }
  }

  private async attempt(id: string): Promise<void> {
    const message = this.inbox.get(id)
    if (!message || (message.status !== 'pending' && message.status !== 'failed')) {
      this.due.delete(id)
      return
    }
    const attempts = message.attempts + 1
    try {
      await this.inbox.startAttempt(id, new Date())
      await this.deliver(message, this.abort.signal)
    } catch (error) {
      if (this.abort.signal.aborted) return
      const reason = messageOf(error)
      const delay = backoffDelay(attempts, this.backoff)
      console.warn(
        `[contact] mailing ${id} failed (attempt ${attempts}): ${reason}; retrying in ${delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`}`,
      )
      this.due.set(id, Date.now() + delay)
      await this.inbox
        .markFailed(id, reason)
        .catch((e) => console.error(`[contact] could not record the failure of ${id}`, e))
      return
    }
    this.due.delete(id)
    await this.inbox
      .markSent(id, new Date())
      .catch((e) => console.error(`[contact] ${id} was mailed but not marked sent`, e))
  }

  /** Stops retrying and abandons an in-flight send; what is unsent is resumed by the next start. */
  async close(): Promise<void> {
    this.abort.abort()
    clearTimeout(this.timer)
    await this.running
  }
}
