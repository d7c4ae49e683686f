import {isRecord} from '../util/isRecord.ts'

/** A stored document: Sanity's system fields plus anything else. */
export interface Doc {
  _id: string
  _type: string
  _rev?: string
  _createdAt?: string
  _updatedAt?: string
  [field: string]: unknown
}

/** The body of a patch: Sanity's patch operations, addressed by id or by query. */
export interface PatchBody {
  id?: string
  query?: string
  params?: Record<string, unknown>
  ifRevisionID?: string
  set?: Record<string, unknown>
  setIfMissing?: Record<string, unknown>
  merge?: Record<string, unknown>
  unset?: string[]
  inc?: Record<string, number>
  dec?: Record<string, number>
  insert?:
    | {before: string; items: unknown[]}
    | {after: string; items: unknown[]}
    | {replace: string; items: unknown[]}
  diffMatchPatch?: Record<string, string>
}

/** One mutation as POST /data/mutate accepts it (exactly one key). */
export type Mut =
  | {create: Partial<Doc> & {_type: string}}
  | {createOrReplace: Doc}
  | {createIfNotExists: Doc}
  | {delete: {id?: string; query?: string; params?: Record<string, unknown>; purge?: boolean}}
  | {patch: PatchBody}

/** One document's change inside a committed transaction. */
export interface DocumentChange {
  id: string
  before: Doc | null
  after: Doc | null
  /** The low-level mutations that produced this change, as listeners receive them. */
  mutations: Mut[]
}

export interface CommittedTransaction {
  /** Monotonic position in the transaction log (1, 2, ...). */
  seq: number
  id: string
  /** ISO timestamp of the commit. */
  timestamp: string
  /** User id of the author. */
  author: string
  changes: DocumentChange[]
  /**
   * Each change's document as stored (its JSON, null when deleted), in `changes`' order: the
   * query workers' replicas take this string (lake.ts `mirror`), so a commit is not cloned
   * object by object once per worker on the thread that serves every request.
   */
  stored?: Array<string | null>
}

export function isDoc(value: unknown): value is Doc {
  return isRecord(value) && typeof value._id === 'string' && typeof value._type === 'string'
}

/** Any id with a dot (drafts.*, versions.*, inbox.*) is private: never shown to anonymous reads. */
export function isPublicId(id: string): boolean {
  return !id.includes('.')
}

export function isDraftId(id: string): boolean {
  return id.startsWith('drafts.')
}

export function publishedIdOf(id: string): string {
  return id.startsWith('drafts.') ? id.slice('drafts.'.length) : id
}
