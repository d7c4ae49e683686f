import {createClient, type SanityClient} from '@sanity/client'
import {apiVersion} from '../../shared/constants.ts'
import type {Doc} from '../lake/index.ts'
import type {ContentEvents} from '../live/contentEvents.ts'
import {isRecord} from '../util/isRecord.ts'
import {PrivateChanges} from './privateChanges.ts'
import type {ContentChange, SocialContent} from './socialContent.ts'

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

/** Every request but the listener's stream: a hosted API that hangs must not hold a pass forever. */
const requestTimeoutMs = 30_000

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
  const privateChanges = new PrivateChanges(client, emit)

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
      if (!privateChanges.started) privateChanges.listen()
      return () => listeners.delete(listener)
    },
    close() {
      privateChanges.close()
      stopEvents()
      return Promise.resolve()
    },
  }
}

function isDoc(value: unknown): value is Doc {
  return isRecord(value) && typeof value._id === 'string' && typeof value._type === 'string'
}
