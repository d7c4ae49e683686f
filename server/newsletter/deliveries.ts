import {backoffDelay, type BackoffOptions} from '../util/backoff.ts'
import type {Lake} from '../lake/index.ts'
import {author, deliveryId, isActiveSubscriber, type Delivery, type Mailing} from './mailingDocs.ts'
import type {SendMail} from './mailer.ts'
import {newPostMail, type PostForMail} from './messages.ts'
import {unsubscribeUrl, type LinkSettings} from './subscriptionMails.ts'

/**
 * A mailing's durable outbox (the delivery documents), its ledger: written when the grace period
 * ends, each delivery moved queued → sending → sent (or failed, retried with backoff), and the
 * mailing's counts kept. The order of commits around the SMTP send is the at-most-twice rule of
 * mailing.ts's comment.
 */
export class Deliveries {
  private readonly lake: Lake
  private readonly send: SendMail
  private readonly links: LinkSettings
  private readonly backoff: Required<BackoffOptions>

  constructor(lake: Lake, send: SendMail, links: LinkSettings, backoff: Required<BackoffOptions>) {
    this.lake = lake
    this.send = send
    this.links = links
    this.backoff = backoff
  }

  private query<T>(groq: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.lake.query<T>(groq, params, {authenticated: true})
  }

  /** The grace period is over: the mailing's outbox is written, one delivery per active subscriber. */
  async begin(mailing: Mailing): Promise<void> {
    const subscribers = await this.query<string[]>(
      '*[_type == "subscriber" && status == "active"] | order(_id asc)._id',
    )
    const deliveries: Delivery[] = subscribers.map((subscriber) => ({
      _id: deliveryId(mailing.postId, subscriber),
      _type: 'newsletterDelivery',
      mailing: mailing._id,
      subscriber,
      status: 'queued',
      attempts: 0,
    }))
    await this.lake.mutate(
      [
        {
          patch: {
            id: mailing._id,
            set: {
              status: subscribers.length > 0 ? 'sending' : 'sent',
              recipients: subscribers.length,
              sent: 0,
              failed: 0,
            },
          },
        },
        ...deliveries.map((doc) => ({createIfNotExists: doc})),
      ],
      {author},
    )
    console.info(`[newsletter] mailing ${mailing.postId} to ${subscribers.length} subscribers`)
  }

  /**
   * After a crash: a delivery left `sending` is queued again, so no one is lost. It keeps its id,
   * hence its `Message-ID`: if the mail server did take the first copy (the window after DATA,
   * see mailing.ts), the resend is recognisably the same message.
   */
  async requeueInterrupted(): Promise<void> {
    // Deliveries are sent one at a time and awaited, and passes never overlap, so at the start
    // of a pass none is `sending` unless a crash (or a failed `sent` commit) left it so.
    const stuck = await this.query<Delivery[]>(
      '*[_type == "newsletterDelivery" && status == "sending"]',
    )
    if (stuck.length === 0) return
    await this.lake.mutate(
      stuck.map((d) => ({
        patch: {
          id: d._id,
          set: {
            status: 'queued',
            lastError:
              'The server stopped while this mail was being sent; it is sent again with the same Message-ID.',
          },
        },
      })),
      {author},
    )
    console.warn(
      `[newsletter] ${stuck.length} mail(s) interrupted by a stop: sent again with the same Message-ID`,
    )
  }

  /** Up to `size` deliveries due now: queued ones, and failed ones whose retry time has come. */
  due(now: Date, size: number): Promise<Delivery[]> {
    return this.query<Delivery[]>(
      `*[_type == "newsletterDelivery" && (status == "queued" || (status == "failed" && dateTime(nextAttemptAt) <= dateTime($now)))] | order(_id asc)[0...${size}]`,
      {now: now.toISOString()},
    )
  }

  /** Sends one delivery of `content` (none: the post is gone), and records what happened. */
  async deliver(
    delivery: Delivery,
    content: PostForMail | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const subscriber = this.lake.getDocument(delivery.subscriber)
    // Unsubscribed (or never confirmed) since the mailing began, or the post is gone: skipped.
    if (!isActiveSubscriber(subscriber) || !content) {
      await this.lake.mutate([{patch: {id: delivery._id, set: {status: 'skipped'}}}], {author})
      return
    }
    await this.lake.mutate(
      [{patch: {id: delivery._id, set: {status: 'sending'}, inc: {attempts: 1}}}],
      {author},
    )
    const hash = subscriber._id.replace(/^subscriber\./, '')
    const unsubscribe = unsubscribeUrl(this.links, hash)
    try {
      await this.send(
        {
          to: subscriber.email,
          ...newPostMail(content, unsubscribe),
          unsubscribeUrl: unsubscribe,
          messageId: `<${delivery._id}@scriptorium.newsletter>`,
        },
        signal,
      )
    } catch (error) {
      await this.failed(delivery, error instanceof Error ? error.message : String(error))
      return
    }
    // The 250 is in: `sent` is committed now, before anything else is awaited (the ambiguous
    // window of mailing.ts ends when this commit is durable).
    await this.lake.mutate(
      [
        {patch: {id: delivery._id, set: {status: 'sent'}, unset: ['lastError', 'nextAttemptAt']}},
        {patch: {id: delivery.mailing, inc: {sent: 1}}},
      ],
      {author},
    )
    if (delivery.status === 'failed') await this.countFailures(delivery.mailing)
  }

  private async failed(delivery: Delivery, reason: string): Promise<void> {
    const delay = backoffDelay(delivery.attempts + 1, this.backoff)
    console.warn(
      `[newsletter] ${delivery._id} failed (attempt ${delivery.attempts + 1}): ${reason}`,
    )
    await this.lake.mutate(
      [
        {
          patch: {
            id: delivery._id,
            set: {
              status: 'failed',
              lastError: reason.slice(0, 500),
              nextAttemptAt: new Date(this.links.now().getTime() + delay).toISOString(),
            },
          },
        },
        {patch: {id: delivery.mailing, set: {lastError: reason.slice(0, 500)}}},
      ],
      {author},
    )
    await this.countFailures(delivery.mailing)
  }

  private async countFailures(mailing: string): Promise<void> {
    const failed = await this.query<number>(
      'count(*[_type == "newsletterDelivery" && mailing == $mailing && status == "failed"])',
      {mailing},
    )
    await this.lake.mutate([{patch: {id: mailing, set: {failed}}}], {author})
  }

  /** A mailing with nothing left to send is `sent`. */
  async finishIfDone(mailing: string): Promise<void> {
    const open = await this.query<number>(
      'count(*[_type == "newsletterDelivery" && mailing == $mailing && status in ["queued", "sending", "failed"]])',
      {mailing},
    )
    if (open === 0)
      await this.lake.mutate([{patch: {id: mailing, set: {status: 'sent', failed: 0}}}], {author})
  }
}
