import type {Subscriber} from './subscribers.ts'

/**
 * The documents of the new-post mail (mailing.ts), private to the owner: a mailing per post
 * (`mailing.<post id>`), a delivery per subscriber of it, and the newsletter's own state.
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

export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped'

export interface Delivery {
  _id: string
  _type: 'newsletterDelivery'
  mailing: string
  subscriber: string
  status: DeliveryStatus
  attempts: number
  nextAttemptAt?: string
  lastError?: string
}

export interface PublishedPost {
  _id: string
  _updatedAt: string
  title: string | null
  slug: string | null
  newsletter: boolean | null
}

/** A subscriber who still wants mail: confirmed and not unsubscribed. */
export function isActiveSubscriber(doc: unknown): doc is Subscriber {
  if (typeof doc !== 'object' || doc === null) return false
  const d: Record<string, unknown> = {...doc}
  return d._type === 'subscriber' && d.status === 'active' && typeof d.email === 'string'
}

/** Who the newsletter's commits are by, in the history. */
export const author = 'newsletter'
export const stateId = 'newsletter.state'
export const mailingId = (postId: string) => `mailing.${postId}`
export const deliveryId = (postId: string, subscriber: string) =>
  `delivery.${postId}.${subscriber.replace(/^subscriber\./, '')}`

/** Published posts: no draft, no release version (both have private ids). */
export const publishedPosts = `*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**")) && !(_id in path("versions.**"))]`
