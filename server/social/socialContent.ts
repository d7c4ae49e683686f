import type {Doc, Lake} from '../lake/index.ts'
import {touchesPublic} from '../lake/index.ts'

/** One changed document, as far as the source knows it (a delete has no `after`). */
export interface ChangedDocument {
  id: string
  before: unknown
  after: unknown
}

/**
 * What changed in the content: `documents` when the source names them (undefined when it only
 * knows that something may have: a reconnect, a live event's opaque sync tags), and whether
 * readers may see the change (a publish, an edit: the publication pass must look).
 */
export interface ContentChange {
  documents: ChangedDocument[] | undefined
  public: boolean
}

/**
 * The one door of the social web to the content it keeps and reads (followers, blocks,
 * comments, reactions, threads, what was sent, the posts): the local lake in process, or a
 * hosted Sanity dataset over `@sanity/client` with a write token (hostedContent.ts). Reads see
 * private documents (ids with a dot); the code above never needs more than this.
 */
export interface SocialContent {
  /** GROQ over every document, private ones included (the raw perspective). */
  query<T>(groq: string, params?: Record<string, unknown>): Promise<T>
  /** All in one transaction; resolves once a following query sees it. */
  mutate(mutations: unknown[], options: {author: string}): Promise<void>
  getDocument(id: string): Promise<Doc | undefined>
  /** Calls `listener` after changes; returns the unsubscribe function. */
  onChange(listener: (change: ContentChange) => void): () => void
  close(): Promise<void>
}

/** The local lake, in process: its commits name every changed document. */
export function lakeContent(lake: Lake): SocialContent {
  return {
    query: (groq, params = {}) => lake.query(groq, params, {authenticated: true}),
    async mutate(mutations, options) {
      await lake.mutate(mutations, options)
    },
    getDocument: (id) => Promise.resolve(lake.getDocument(id)),
    onChange: (listener) =>
      lake.onCommit((committed) =>
        listener({documents: committed.changes, public: touchesPublic(committed)}),
      ),
    close: () => Promise.resolve(),
  }
}
