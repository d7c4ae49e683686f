import {randomUUID} from 'node:crypto'
import type {Lake} from '../lake/index.ts'
import type {Submission} from './validate.ts'

/** Mirrors schemas/documents/contactMessage.ts (not imported: it would pull the Studio in). */
export type MessageStatus = 'pending' | 'sent' | 'failed' | 'spam'

export interface ContactMessage {
  _id: string
  _type: 'contactMessage'
  name: string
  email: string
  message: string
  replyTo?: string
  subject?: string
  page?: string
  receivedAt: string
  status: MessageStatus
  attempts: number
  lastError?: string
  sentAt?: string
}

/** The relay wrote every contactMessage itself, so the type and the text fields are enough. */
export function isContactMessage(doc: unknown): doc is ContactMessage {
  if (typeof doc !== 'object' || doc === null) return false
  const d: Record<string, unknown> = {...doc}
  return (
    d._type === 'contactMessage' &&
    typeof d._id === 'string' &&
    typeof d.name === 'string' &&
    typeof d.email === 'string' &&
    typeof d.message === 'string'
  )
}

/** Who the lake's transaction log names as the author of the relay's writes. */
const author = 'contact-relay'
/** `inbox.` makes the id private: anonymous reads never see dotted ids (server/lake/types.ts). */
const idPrefix = 'inbox.'

/**
 * The owner's inbox in the lake. Every write goes through `lake.mutate`, which has committed
 * durably (SQLite, synchronous=FULL) by the time it resolves.
 */
export class Inbox {
  private readonly lake: Lake

  constructor(lake: Lake) {
    this.lake = lake
  }

  /** Stores a new message (pending, or spam) and returns it as stored. */
  async receive(submission: Submission, receivedAt: Date): Promise<ContactMessage> {
    const doc: ContactMessage = {
      _id: `${idPrefix}${randomUUID()}`,
      _type: 'contactMessage',
      name: submission.name,
      email: submission.email,
      message: submission.message,
      ...(submission.replyTo && {replyTo: submission.replyTo}),
      ...(submission.subject && {subject: submission.subject}),
      ...(submission.next && {page: submission.next}),
      receivedAt: receivedAt.toISOString(),
      status: submission.spam ? 'spam' : 'pending',
      attempts: 0,
    }
    await this.lake.mutate([{create: doc}], {author})
    return doc
  }

  get(id: string): ContactMessage | undefined {
    const doc = this.lake.getDocument(id)
    return isContactMessage(doc) ? doc : undefined
  }

  /** Ids of messages still to be mailed, oldest first. */
  async outstanding(): Promise<string[]> {
    return this.lake.query<string[]>(
      '*[_type == "contactMessage" && status in ["pending", "failed"]] | order(receivedAt asc)._id',
      {},
      {authenticated: true},
    )
  }

  /** Counts an attempt before it is made, so a crash mid-send still shows in `attempts`. */
  async startAttempt(id: string, at: Date): Promise<void> {
    await this.patch(id, {inc: {attempts: 1}, set: {lastAttemptAt: at.toISOString()}})
  }

  async markSent(id: string, at: Date): Promise<void> {
    await this.patch(id, {set: {status: 'sent', sentAt: at.toISOString()}, unset: ['lastError']})
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.patch(id, {set: {status: 'failed', lastError: error.slice(0, 1000)}})
  }

  private async patch(id: string, operations: Record<string, unknown>): Promise<void> {
    await this.lake.mutate([{patch: {id, ...operations}}], {author})
  }
}
