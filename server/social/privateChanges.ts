import type {ListenEvent, SanityClient} from '@sanity/client'
import {messageOf} from '../util/messageOf.ts'
import type {ChangedDocument, ContentChange} from './socialContent.ts'

/** The private documents whose changes the social web acts on (blocks, threads). */
const watchedTypes = ['socialComment', 'socialReaction', 'socialBlock']
/** The listener's resubscription after it failed: doubled per failure in a row, up to a cap. */
const retryMs = {first: 1_000, cap: 60_000}

function changedDocument(event: ListenEvent<Record<string, unknown>>): ChangedDocument | undefined {
  if (event.type !== 'mutation') return undefined
  return {id: event.documentId, before: event.previous ?? null, after: event.result ?? null}
}

/**
 * A listener with the write token on the social web's private types in a hosted dataset: the
 * Live Content API speaks only of what readers see, and a comment approved in the Studio is
 * private. It subscribes again after a failure, with backoff, and every (re)connection tells of
 * an unnamed change, since what changed while it was away went unseen.
 */
export class PrivateChanges {
  private readonly client: SanityClient
  private readonly emit: (change: ContentChange) => void
  private stopListening: (() => void) | undefined
  private closed = false
  private failures = 0
  private retry: NodeJS.Timeout | undefined

  constructor(client: SanityClient, emit: (change: ContentChange) => void) {
    this.client = client
    this.emit = emit
  }

  get started(): boolean {
    return this.stopListening !== undefined
  }

  listen(): void {
    if (this.closed) return
    const subscription = this.client
      .listen(
        '*[_type in $types]',
        {types: watchedTypes},
        {
          events: ['welcome', 'mutation'],
          includeResult: true,
          includePreviousRevision: true,
          visibility: 'query',
          tag: 'scriptorium.social',
        },
      )
      .subscribe({
        next: (event) => this.received(event),
        // An error or the end closes the subscription itself: nothing to unsubscribe then.
        error: (error: unknown) => this.failed(error),
        complete: () => this.failed(new Error('the listener ended')),
      })
    this.stopListening = () => subscription.unsubscribe()
  }

  close(): void {
    this.closed = true
    clearTimeout(this.retry)
    this.stopListening?.()
  }

  private received(event: ListenEvent<Record<string, unknown>>): void {
    if (event.type === 'welcome') {
      this.failures = 0
      this.emit({documents: undefined, public: false})
      return
    }
    const changed = changedDocument(event)
    if (changed) this.emit({documents: [changed], public: false})
  }

  private failed(error: unknown): void {
    if (this.closed) return
    const delay = Math.min(retryMs.cap, retryMs.first * 2 ** this.failures++)
    console.warn(
      `[social] the hosted dataset's listener failed (${messageOf(error)}); again in ${delay} ms`,
    )
    this.retry = setTimeout(() => this.listen(), delay)
    this.retry.unref()
  }
}
