import {backoffDelay, type BackoffOptions, defaultBackoff} from '../util/backoff.ts'
import type {Lake} from '../lake/index.ts'
import {excerptLength} from '../../shared/constants.ts'
import {
  altOf,
  imageBuilder,
  isShown,
  type PostImage,
  type ShownImage,
} from '../../shared/imageUrl.ts'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import type {SendMail} from './mailer.ts'
import {newPostMail, type PostForMail} from './messages.ts'
import type {Subscriber} from './subscribers.ts'
import {unsubscribeUrl, type LinkSettings} from './subscriptionMails.ts'

/**
 * The new-post mail (docs/newsletter.md). A post's first publish creates its mailing
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
 * nothing awaited in between (server/lake/groupCommit.ts writes it in that event-loop turn).
 * A refused or failed SMTP send is `failed` and retried with backoff until it goes through.
 */
export type MailingStatus = 'existing' | 'scheduled' | 'cancelled' | 'off' | 'sending' | 'sent'

export interface Mailing {
  _id: string
  _type: 'newsletterIssue'
  postId: string
  title: string
  status: MailingStatus
  publishedAt: string
  dueAt: string
  recipients?: number
  sent?: number
  failed?: number
  lastError?: string
}

type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped'

interface Delivery {
  _id: string
  _type: 'newsletterDelivery'
  mailing: string
  subscriber: string
  status: DeliveryStatus
  attempts: number
  nextAttemptAt?: string
  lastError?: string
}

interface PublishedPost {
  _id: string
  _updatedAt: string
  title: string | null
  slug: string | null
  newsletter: boolean | null
}

function isActiveSubscriber(doc: unknown): doc is Subscriber {
  if (typeof doc !== 'object' || doc === null) return false
  const d: Record<string, unknown> = {...doc}
  return d._type === 'subscriber' && d.status === 'active' && typeof d.email === 'string'
}

const author = 'newsletter'
/** The cover's width in the mail: twice its 560 px box in messages.ts, for sharp high-density screens. */
const coverWidth = 1120
/** Deliveries read per query while sending. */
const batchSize = 100
const stateId = 'newsletter.state'
export const mailingId = (postId: string) => `mailing.${postId}`
const deliveryId = (postId: string, subscriber: string) =>
  `delivery.${postId}.${subscriber.replace(/^subscriber\./, '')}`

/** Published posts: no draft, no release version (both have private ids). */
const publishedPosts = `*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**")) && !(_id in path("versions.**"))]`

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
  private readonly send: SendMail
  private readonly links: LinkSettings
  private readonly graceMs: number
  private readonly gapMs: number
  private readonly backoff: Required<BackoffOptions>
  private readonly abort = new AbortController()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  /** When this process's newsletter started (ms): the first pass's back-catalogue line. */
  private readonly startedAt: number

  constructor(options: MailingOptions) {
    this.lake = options.lake
    this.send = options.send
    this.links = options.links
    this.graceMs = options.graceMs
    this.gapMs = 60_000 / options.perMinute
    this.backoff = {...defaultBackoff, ...options.backoff}
    this.startedAt = options.links.now().getTime()
  }

  private now(): Date {
    return this.links.now()
  }

  private async query<T>(groq: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.lake.query<T>(groq, params, {authenticated: true})
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
    await this.noticePublishes()
    await this.sendDue()
  }

  /** New first publishes become mailings; unpublishes and `newsletter: false` in grace stop them. */
  private async noticePublishes(): Promise<void> {
    const posts = await this.query<PublishedPost[]>(
      `${publishedPosts}{_id, _updatedAt, title, "slug": slug.current, newsletter}`,
    )
    const mailings = await this.query<Mailing[]>('*[_type == "newsletterIssue"]')
    const known = new Map(mailings.map((m) => [m.postId, m]))
    const now = this.now()
    // The first pass ever: the posts already out when the newsletter started are the back
    // catalogue, not news (one published a moment later is).
    const first = !this.lake.getDocument(stateId)
    const backCatalogue = (post: PublishedPost) =>
      first && Date.parse(post._updatedAt) < this.startedAt
    const creates = posts
      .filter((post) => !known.has(post._id))
      .map((post): Mailing => {
        const status: MailingStatus = backCatalogue(post)
          ? 'existing'
          : post.newsletter === false
            ? 'off'
            : 'scheduled'
        return {
          _id: mailingId(post._id),
          _type: 'newsletterIssue',
          postId: post._id,
          title: post.title ?? post.slug ?? post._id,
          status,
          publishedAt: now.toISOString(),
          dueAt: new Date(now.getTime() + this.graceMs).toISOString(),
        }
      })
    const published = new Map(posts.map((post) => [post._id, post]))
    const stops = mailings
      .filter((m) => m.status === 'scheduled')
      .flatMap((m) => {
        const post = published.get(m.postId)
        if (!post) return [{patch: {id: m._id, set: {status: 'cancelled'}}}]
        if (post.newsletter === false) return [{patch: {id: m._id, set: {status: 'off'}}}]
        return []
      })
    const mutations = [
      ...(first
        ? [{createIfNotExists: {_id: stateId, _type: 'newsletterState', since: now.toISOString()}}]
        : []),
      ...creates.map((doc) => ({createIfNotExists: doc})),
      ...stops,
    ]
    if (mutations.length > 0) await this.lake.mutate(mutations, {author})
    for (const doc of creates)
      if (doc.status === 'scheduled')
        console.info(`[newsletter] ${doc.postId} published: mailing at ${doc.dueAt}`)
    for (const stop of stops) console.info(`[newsletter] ${stop.patch.id} ${stop.patch.set.status}`)
  }

  /** Starts due mailings, then sends what is queued, one mail at a time at the configured rate. */
  private async sendDue(): Promise<void> {
    const now = this.now()
    const due = await this.query<Mailing[]>(
      '*[_type == "newsletterIssue" && status == "scheduled" && dateTime(dueAt) <= dateTime($now)]',
      {now: now.toISOString()},
    )
    for (const mailing of due) await this.begin(mailing)
    await this.requeueInterrupted()
    for (;;) {
      if (this.abort.signal.aborted) return
      // A batch at a time: one query for many sends, the post read once per mailing.
      const batch = await this.query<Delivery[]>(
        `*[_type == "newsletterDelivery" && (status == "queued" || (status == "failed" && dateTime(nextAttemptAt) <= dateTime($now)))] | order(_id asc)[0...${batchSize}]`,
        {now: this.now().toISOString()},
      )
      if (batch.length === 0) break
      const posts = new Map<string, Promise<PostForMail | undefined>>()
      for (const delivery of batch) {
        if (this.abort.signal.aborted) return
        await this.deliver(delivery, posts)
        if (this.gapMs > 0) await this.wait(this.gapMs)
      }
      for (const mailing of new Set(batch.map((d) => d.mailing))) await this.finishIfDone(mailing)
    }
    this.scheduleNext()
  }

  /** The grace period is over: the mailing's outbox is written, one delivery per active subscriber. */
  private async begin(mailing: Mailing): Promise<void> {
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
   * see above), the resend is recognisably the same message.
   */
  private async requeueInterrupted(): Promise<void> {
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

  private async deliver(
    delivery: Delivery,
    posts: Map<string, Promise<PostForMail | undefined>>,
  ): Promise<void> {
    const subscriber = this.lake.getDocument(delivery.subscriber)
    let post = posts.get(delivery.mailing)
    if (!post) {
      const mailing = this.lake.getDocument(delivery.mailing)
      post = this.postForMail(typeof mailing?.postId === 'string' ? mailing.postId : undefined)
      posts.set(delivery.mailing, post)
    }
    const content = await post
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
        this.abort.signal,
      )
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
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
                nextAttemptAt: new Date(this.now().getTime() + delay).toISOString(),
              },
            },
          },
          {patch: {id: delivery.mailing, set: {lastError: reason.slice(0, 500)}}},
        ],
        {author},
      )
      await this.countFailures(delivery.mailing)
      return
    }
    // The 250 is in: `sent` is committed now, before anything else is awaited (the ambiguous
    // window above ends when this commit is durable).
    await this.lake.mutate(
      [
        {patch: {id: delivery._id, set: {status: 'sent'}, unset: ['lastError', 'nextAttemptAt']}},
        {patch: {id: delivery.mailing, inc: {sent: 1}}},
      ],
      {author},
    )
    if (delivery.status === 'failed') await this.countFailures(delivery.mailing)
  }

  private async countFailures(mailing: string): Promise<void> {
    const failed = await this.query<number>(
      'count(*[_type == "newsletterDelivery" && mailing == $mailing && status == "failed"])',
      {mailing},
    )
    await this.lake.mutate([{patch: {id: mailing, set: {failed}}}], {author})
  }

  private async finishIfDone(mailing: string): Promise<void> {
    const open = await this.query<number>(
      'count(*[_type == "newsletterDelivery" && mailing == $mailing && status in ["queued", "sending", "failed"]])',
      {mailing},
    )
    if (open === 0)
      await this.lake.mutate([{patch: {id: mailing, set: {status: 'sent', failed: 0}}}], {author})
  }

  private async postForMail(postId: string | undefined): Promise<PostForMail | undefined> {
    if (!postId) return undefined
    const post = await this.query<{
      title: string | null
      slug: string | null
      excerpt: string | null
      cover: PostImage | null
    } | null>(
      `${publishedPosts}[_id == $id][0]{
        title, "slug": slug.current,
        "excerpt": coalesce(excerpt, array::join(string::split(pt::text(body), "")[0...${excerptLength}], "")),
        "cover": mainImage{"asset": asset->{_id}, crop, hotspot, alt, decorative}
      }`,
      {id: postId},
    )
    if (!post?.slug) return undefined
    const url = `${this.links.siteUrl}/blog/${encodeURIComponent(post.slug)}`
    const cover = isShown(post.cover) ? post.cover : undefined
    return {
      title: post.title ?? post.slug,
      excerpt: post.excerpt ?? '',
      url,
      ...(cover ? {cover: {url: this.coverUrl(cover), alt: altOf(cover)}} : {}),
    }
  }

  /**
   * The cover as the mail shows it: absolute (a mail has no base address), through the site's one
   * image-URL builder (shared/imageUrl.ts: the Studio's crop applies), at most `coverWidth`
   * pixels wide, in the upload's own format (no `auto=format`: mail clients do not all take WebP).
   */
  private coverUrl(cover: ShownImage): string {
    const site = resolveSiteConfig({siteUrl: this.links.siteUrl})
    return imageBuilder(site, true).image(cover).width(coverWidth).fit('max').url()
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
    const times = await this.query<string[]>(
      `[...*[_type == "newsletterIssue" && status == "scheduled"].dueAt, ...*[_type == "newsletterDelivery" && status == "failed"].nextAttemptAt]`,
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
