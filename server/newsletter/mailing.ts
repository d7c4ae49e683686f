import {defaultBackoff, type BackoffOptions} from '../util/backoff.ts'
import type {Lake} from '../lake/index.ts'
import {Deliveries} from './deliveries.ts'
import {noticeFirstPublishes} from './firstPublishes.ts'
import type {Mailing} from './mailingDocs.ts'
import type {SendMail} from './mailer.ts'
import type {PostForMail} from './messages.ts'
import {postForMail} from './postForMail.ts'
import type {LinkSettings} from './subscriptionMails.ts'

export {mailingId} from './mailingDocs.ts'

/**
 * The new-post mail (docs/newsletter.md), its loop: each pass notices first publishes
 * (firstPublishes.ts), starts due mailings and sends their deliveries (deliveries.ts) at the
 * configured rate, then sleeps until the next due time or the next commit. A post's first publish creates its mailing
 * (`mailing.<post id>`, status `scheduled`, due after NEWSLETTER_GRACE_MINUTES); an unpublish in
 * the grace period cancels it, the post's `newsletter: false` turns it off. When due, one
 * delivery document per active subscriber is written in one transaction (the durable outbox),
 * then each is sent at NEWSLETTER_SEND_PER_MINUTE at most:
 *
 *   queued → sending (committed) → SMTP, until the server's 250 after DATA → sent (committed)
 *
 * No one is lost: a delivery found `sending` after a crash is sent again, with the same
 * `Message-ID`. A crash before the end of DATA means the mail server never had the mail (SMTP
 * hands a message over only at the 250 that follows), so the resend is its one copy. The one
 * ambiguous window
 * is from the end of DATA to the durable `sent` commit: the server may have taken the mail
 * while this process never recorded it (it died, or never heard the 250). Only a delivery
 * caught in that window is mailed twice, as the same message (same `Message-ID`, which
 * receiving mailboxes use to drop the copy); sends are one at a time, so a crash leaves at most
 * one such delivery. The window is kept short: `sent` is committed on the 250 itself, with
 * nothing awaited in between (server/lake/writes/groupCommit.ts writes it in that event-loop turn).
 * A refused or failed SMTP send is `failed` and retried with backoff until it goes through.
 */
/** Deliveries read per query while sending. */
const batchSize = 100

export interface MailingOptions {
  lake: Lake
  send: SendMail
  links: LinkSettings
  graceMs: number
  /** Mails per minute at most. */
  perMinute: number
  backoff?: BackoffOptions
}

export class Mailings {
  private readonly lake: Lake
  private readonly links: LinkSettings
  private readonly graceMs: number
  private readonly gapMs: number
  private readonly deliveries: Deliveries
  private readonly abort = new AbortController()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  /** When this process's newsletter started (ms): the first pass's back-catalogue line. */
  private readonly startedAt: number

  constructor(options: MailingOptions) {
    this.lake = options.lake
    this.links = options.links
    this.graceMs = options.graceMs
    this.gapMs = 60_000 / options.perMinute
    const backoff = {...defaultBackoff, ...options.backoff}
    this.deliveries = new Deliveries(options.lake, options.send, options.links, backoff)
    this.startedAt = options.links.now().getTime()
  }

  private now(): Date {
    return this.links.now()
  }

  /** Resumes after a start: what was sending goes on, what is due is sent. */
  start(): void {
    this.poke()
  }

  /** Something was committed (a publish, an unpublish): look again, one pass at a time. */
  poke(): void {
    if (this.abort.signal.aborted) return
    if (this.running) {
      this.again = true
      return
    }
    clearTimeout(this.timer)
    this.running = this.pass()
      .catch((error: unknown) => {
        if (!this.abort.signal.aborted) console.error('[newsletter] mailing pass failed', error)
      })
      .finally(() => {
        this.running = undefined
        if (this.again) {
          this.again = false
          this.poke()
        }
      })
  }

  private async pass(): Promise<void> {
    await noticeFirstPublishes(this.lake, {
      now: this.now(),
      graceMs: this.graceMs,
      startedAt: this.startedAt,
    })
    await this.sendDue()
  }

  /** Starts due mailings, then sends what is queued, one mail at a time at the configured rate. */
  private async sendDue(): Promise<void> {
    const due = await this.lake.query<Mailing[]>(
      '*[_type == "newsletterIssue" && status == "scheduled" && dateTime(dueAt) <= dateTime($now)]',
      {now: this.now().toISOString()},
      {authenticated: true},
    )
    for (const mailing of due) await this.deliveries.begin(mailing)
    await this.deliveries.requeueInterrupted()
    for (;;) {
      if (this.abort.signal.aborted) return
      // A batch at a time: one query for many sends, the post read once per mailing.
      const batch = await this.deliveries.due(this.now(), batchSize)
      if (batch.length === 0) break
      const posts = new Map<string, Promise<PostForMail | undefined>>()
      for (const delivery of batch) {
        if (this.abort.signal.aborted) return
        let post = posts.get(delivery.mailing)
        if (!post) {
          const postId = this.lake.getDocument(delivery.mailing)?.postId
          post = postForMail(
            this.lake,
            this.links.siteUrl,
            typeof postId === 'string' ? postId : undefined,
          )
          posts.set(delivery.mailing, post)
        }
        await this.deliveries.deliver(delivery, await post, this.abort.signal)
        if (this.gapMs > 0) await this.wait(this.gapMs)
      }
      for (const mailing of new Set(batch.map((d) => d.mailing)))
        await this.deliveries.finishIfDone(mailing)
    }
    this.scheduleNext()
  }

  /** The next scheduled mailing or failed delivery wakes the worker. */
  private scheduleNext(): void {
    this.nextWake().then(
      (at) => {
        if (at === undefined || this.abort.signal.aborted) return
        clearTimeout(this.timer)
        this.timer = setTimeout(() => this.poke(), Math.max(0, at - this.now().getTime()))
      },
      (error: unknown) => {
        // Stopping: the lake closes under a last look; the next start looks again.
        if (!this.abort.signal.aborted) console.error('[newsletter] could not schedule', error)
      },
    )
  }

  private async nextWake(): Promise<number | undefined> {
    const times = await this.lake.query<string[]>(
      `[...*[_type == "newsletterIssue" && status == "scheduled"].dueAt, ...*[_type == "newsletterDelivery" && status == "failed"].nextAttemptAt]`,
      {},
      {authenticated: true},
    )
    const ms = times.map((t) => Date.parse(t)).filter((t) => Number.isFinite(t))
    return ms.length > 0 ? Math.min(...ms) : undefined
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms)
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  async close(): Promise<void> {
    this.abort.abort()
    clearTimeout(this.timer)
    await this.running
  }
}
