import {randomBytes} from 'node:crypto'
import type {Lake} from '../lake/index.ts'

/** Mirrors schemas/documents/subscriber.ts (not imported: it would pull the Studio in). */
export type SubscriberStatus = 'pending' | 'active'

export interface Subscriber {
  _id: string
  _type: 'subscriber'
  email: string
  status: SubscriberStatus
  subscribedAt: string
  confirmedAt?: string
  /** Pending only: the one-time part of the confirmation link; removed once it is used. */
  confirmNonce?: string
  /** The last mail sent to the address about its subscription (at most one a day). */
  lastMailAt?: string
}

/** What is left of an address that unsubscribed: its salted hash, nothing else. */
export interface UnsubscribedAddress {
  _id: string
  _type: 'unsubscribedAddress'
  unsubscribedAt: string
  /**
   * When it had confirmed, or `pending` if it never did: dates only, so the owner's newsletter
   * figures (server/stats/newsletterTable.ts) count who left the list, and since when they were on it.
   */
  confirmedAt?: string
  pending?: true
}

/** Who the lake's transaction log names as the author of the newsletter's writes. */
const author = 'newsletter'
/** Dotted ids are private: anonymous reads never see them (server/lake/types.ts). */
export const subscriberId = (hash: string) => `subscriber.${hash}`
export const unsubscribedId = (hash: string) => `unsubscribed.${hash}`

/** At most one subscription mail (confirmation or reminder) per address in this time. */
export const mailEveryMs = 24 * 60 * 60_000

export type SubscribeOutcome =
  | {mail: 'confirm'; subscriber: Subscriber}
  | {mail: 'already-active'; subscriber: Subscriber}
  | {mail: null}

function isSubscriber(doc: unknown): doc is Subscriber {
  if (typeof doc !== 'object' || doc === null) return false
  const d: Record<string, unknown> = {...doc}
  return d._type === 'subscriber' && typeof d._id === 'string' && typeof d.email === 'string'
}

/**
 * The subscriber list, as private documents in the lake (the owner sees them read-only in the
 * Studio). Every write goes through `lake.mutate`, durable when it resolves; writes are made one
 * at a time, so two posts for one address cannot both create it.
 */
export class Subscribers {
  private readonly lake: Lake
  private queue: Promise<unknown> = Promise.resolve()

  constructor(lake: Lake) {
    this.lake = lake
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work)
    this.queue = run.catch(() => undefined)
    return run
  }

  get(hash: string): Subscriber | undefined {
    const doc = this.lake.getDocument(subscriberId(hash))
    return isSubscriber(doc) ? doc : undefined
  }

  isUnsubscribed(hash: string): boolean {
    return this.lake.getDocument(unsubscribedId(hash)) !== undefined
  }

  /**
   * A new pending subscriber, or the existing one; says which mail to send, if any: never more
   * than one per address per `mailEveryMs`, whatever the address's state.
   */
  subscribe(email: string, hash: string, now: Date): Promise<SubscribeOutcome> {
    return this.serial(async () => {
      const existing = this.get(hash)
      const at = now.toISOString()
      if (!existing) {
        const subscriber: Subscriber = {
          _id: subscriberId(hash),
          _type: 'subscriber',
          email,
          status: 'pending',
          subscribedAt: at,
          confirmNonce: randomBytes(12).toString('base64url'),
          lastMailAt: at,
        }
        await this.lake.mutate([{create: subscriber}], {author})
        return {mail: 'confirm', subscriber}
      }
      const last = existing.lastMailAt ? Date.parse(existing.lastMailAt) : 0
      if (now.getTime() - last < mailEveryMs) return {mail: null}
      await this.lake.mutate([{patch: {id: existing._id, set: {lastMailAt: at}}}], {author})
      const subscriber = {...existing, lastMailAt: at}
      return existing.status === 'active'
        ? {mail: 'already-active', subscriber}
        : {mail: 'confirm', subscriber}
    })
  }

  /** Confirms a pending subscriber whose link carries `nonce`; a used or stale link changes nothing. */
  confirm(hash: string, nonce: string | undefined, now: Date): Promise<'confirmed' | 'used'> {
    return this.serial(async () => {
      const subscriber = this.get(hash)
      if (!subscriber || subscriber.status !== 'pending' || !nonce) return 'used'
      if (subscriber.confirmNonce !== nonce) return 'used'
      await this.lake.mutate(
        [
          {
            patch: {
              id: subscriber._id,
              set: {status: 'active', confirmedAt: now.toISOString()},
              unset: ['confirmNonce'],
            },
          },
          // Subscribing again after unsubscribing: the address asked, so it is mailed again.
          {delete: {id: unsubscribedId(hash)}},
        ],
        {author},
      )
      return 'confirmed'
    })
  }

  /**
   * Deletes the subscriber, keeping only its salted hash (so it is not mailed again by
   * mistake). 'already' when only the hash is left, 'unknown' when there was never one.
   */
  unsubscribe(hash: string, now: Date): Promise<'done' | 'already' | 'unknown'> {
    return this.serial(async () => {
      const subscriber = this.get(hash)
      if (!subscriber) return this.isUnsubscribed(hash) ? 'already' : 'unknown'
      const record: UnsubscribedAddress = {
        _id: unsubscribedId(hash),
        _type: 'unsubscribedAddress',
        unsubscribedAt: now.toISOString(),
        ...(subscriber.status === 'active' && subscriber.confirmedAt
          ? {confirmedAt: subscriber.confirmedAt}
          : {pending: true}),
      }
      await this.lake.mutate([{delete: {id: subscriber._id}}, {createOrReplace: record}], {
        author,
      })
      return 'done'
    })
  }

  /** A subscription mail that could not be sent does not count against the daily one. */
  forgetLastMail(hash: string): Promise<void> {
    return this.serial(async () => {
      if (!this.get(hash)) return
      await this.lake.mutate([{patch: {id: subscriberId(hash), unset: ['lastMailAt']}}], {author})
    })
  }

  /** Every subscriber, oldest first (the CSV export). */
  async all(): Promise<Subscriber[]> {
    return this.lake.query<Subscriber[]>(
      '*[_type == "subscriber"] | order(subscribedAt asc, _id asc)',
      {},
      {authenticated: true},
    )
  }

  /** Ids of the active subscribers, in a stable order (the new-post mail). */
  async activeIds(): Promise<string[]> {
    return this.lake.query<string[]>(
      '*[_type == "subscriber" && status == "active"] | order(_id asc)._id',
      {},
      {authenticated: true},
    )
  }
}
