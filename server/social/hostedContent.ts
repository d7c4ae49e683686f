import {createClient, type ListenEvent, type SanityClient} from '@sanity/client'
import {apiVersion} from '../../shared/constants.ts'
import type {Doc} from '../lake/index.ts'
import type {ContentEvents} from '../live/contentEvents.ts'
import {isRecord} from '../util/isRecord.ts'
import type {ChangedDocument, ContentChange, SocialContent} from './socialContent.ts'

export interface HostedContentOptions {
  projectId: string
  dataset: string
  /** SANITY_API_WRITE_TOKEN: an Editor token of the project (writeToken.ts). */
  token: string
  /** The process's one Live Content API subscription: it tells of publishes. */
  contentEvents: ContentEvents
  /** Test only: the API's origin (a local lake served over HTTP) instead of sanity.io's. */
  apiHost?: string
}

/** The private documents whose changes the social web acts on (blocks, threads). */
const watchedTypes = ['socialComment', 'socialReaction', 'socialBlock']
/** Every request but the listener's stream: a hosted API that hangs must not hold a pass forever. */
const requestTimeoutMs = 30_000
/** The listener's resubscription after it failed: doubled per failure in a row, up to a cap. */
const retryMs = {first: 1_000, cap: 60_000}

function changedDocument(event: ListenEvent<Record<string, unknown>>): ChangedDocument | undefined {
  if (event.type !== 'mutation') return undefined
  return {id: event.documentId, before: event.previous ?? null, after: event.result ?? null}
}

/**
 * The social web's content in a hosted Sanity dataset (docs/hosted.md): reads and writes go to
 * the project's API (never the CDN: a read right after a write must see it) with the write
 * token, in the raw perspective that shows private documents. Changes come from two streams:
 * the process's Live Content API events (a publish, an edit: public, their sync tags opaque) and
 * a listener on the social web's private types with the token, since the Live Content API
 * speaks only of what readers see and a comment approved in the Studio is private.
 */
export function hostedContent(options: HostedContentOptions): SocialContent {
  const client: SanityClient = createClient({
    projectId: options.projectId,
    dataset: options.dataset,
    apiVersion,
    token: options.token,
    useCdn: false,
    perspective: 'raw',
    timeout: requestTimeoutMs,
    ...(options.apiHost ? {apiHost: options.apiHost, useProjectHostname: false} : {}),
  })
  const listeners = new Set<(change: ContentChange) => void>()
  const emit = (change: ContentChange) => {
    for (const listener of listeners) listener(change)
  }
  let stopListening: (() => void) | undefined
  let closed = false
  let failures = 0
  let retry: NodeJS.Timeout | undefined

  const listen = () => {
    if (closed) return
    // An error or the end closes the subscription itself: nothing to unsubscribe then.
    const fail = (error: unknown) => {
      if (closed) return
      const delay = Math.min(retryMs.cap, retryMs.first * 2 ** failures++)
      console.warn(
        `[social] the hosted dataset's listener failed (${error instanceof Error ? error.message : String(error)}); again in ${delay} ms`,
      )
      retry = setTimeout(listen, delay)
      retry.unref()
    }
    const subscription = client
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
        next: (event) => {
          if (event.type === 'welcome') {
            failures = 0
            // Changes made while it was away went unseen: read everything again.
            emit({documents: undefined, public: false})
            return
          }
          const changed = changedDocument(event)
          if (changed) emit({documents: [changed], public: false})
        },
        error: fail,
        complete: () => fail(new Error('the listener ended')),
      })
    stopListening = () => subscription.unsubscribe()
  }

  const stopEvents = options.contentEvents.onChange((change) =>
    // Tags name no document: the publication pass compares revisions itself. A reset may
    // have lost private changes too.
    emit({documents: change.kind === 'reset' ? undefined : [], public: true}),
  )

  return {
    query: (groq, params = {}) => client.fetch(groq, params),
    async mutate(mutations) {
      // Sanity's mutate endpoint as is: `visibility=sync` answers once queries see the change.
      // The author is the token's user there; the local lake's `author` has no twin.
      await client.request({
        url: `/data/mutate/${options.dataset}`,
        method: 'POST',
        query: {visibility: 'sync', returnIds: 'false'},
        body: {mutations},
      })
    },
    async getDocument(id) {
      const doc: unknown = await client.getDocument(id)
      return isDoc(doc) ? doc : undefined
    },
    onChange(listener) {
      listeners.add(listener)
      if (!stopListening) listen()
      return () => listeners.delete(listener)
    },
    close() {
      closed = true
      clearTimeout(retry)
      stopListening?.()
      stopEvents()
      return Promise.resolve()
    },
  }
}

function isDoc(value: unknown): value is Doc {
  return isRecord(value) && typeof value._id === 'string' && typeof value._type === 'string'
}
