import {randomBytes, randomUUID} from 'node:crypto'
import {Mutation} from '@sanity/mutator'
import {badRequest, LakeError, mutationError} from '../errors.ts'
import type {Doc, DocumentChange, Mut, PatchBody} from '../types.ts'
import {isDoc} from '../types.ts'
import {ChangeOverlay, overlaid, type CoalescedChange} from '../store/documentOrder.ts'
import {messageOf} from '../../util/messageOf.ts'

export type Operation = 'create' | 'update' | 'delete' | 'none'

export interface MutationResult {
  id: string
  operation: Operation
}

/** A transaction's view of the documents, for selections by query. */
export interface WorkingState {
  /** All documents as the transaction sees them. */
  documents(): Doc[]
  /**
   * What differs from the committed documents (pending transactions, then this one), coalesced
   * per document in the order of `*` (documentOrder.ts).
   */
  differences(): Array<[string, CoalescedChange<Doc>]>
}

/** Resolves a GROQ selection (`{query, params}`) to document ids against the working state. */
export type QueryResolver = (
  query: string,
  params: Record<string, unknown>,
  working: WorkingState,
) => Promise<string[]>

/** What a transaction is built over: the committed documents and those still being written. */
export interface TransactionBase {
  get(id: string): Doc | undefined
  snapshot(): Doc[]
  pendingChanges?(): ChangeOverlay<Doc>
}

const mutationKinds = ['create', 'createOrReplace', 'createIfNotExists', 'delete', 'patch'] as const
type MutationKind = (typeof mutationKinds)[number]

/** Sanity's document id grammar: letters, digits and `_-.`, not starting with `-` or `.`. */
export const idPattern = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,199}$/

/** Random bytes drawn in bulk: one call to the CSPRNG per 256 transaction ids, not per id. */
const idPool = {bytes: Buffer.alloc(0), offset: 0}

export function newTransactionId(): string {
  if (idPool.offset + 16 > idPool.bytes.length) {
    idPool.bytes = randomBytes(16 * 256)
    idPool.offset = 0
  }
  const id = idPool.bytes.toString('base64url', idPool.offset, idPool.offset + 16)
  idPool.offset += 16
  // 22 base62-ish characters, the shape of Sanity's transaction ids.
  return id.slice(0, 22)
}

/** The mutation's one key and what it holds. */
function kindOf(mutation: unknown, index: number): {kind: MutationKind; body: unknown} {
  if (!isPlainObject(mutation)) throw badRequest(`Mutation at index ${index} must be an object`)
  const keys = Object.keys(mutation)
  const kind = mutationKinds.find((k) => k === keys[0])
  if (keys.length !== 1 || !kind) {
    throw badRequest(
      `Unknown mutation type "${keys.join(', ')}" at index ${index}; expected one of ${mutationKinds.join(', ')}`,
    )
  }
  return {kind, body: mutation[kind]}
}

/**
 * A mutation as the transaction log stores it: one known kind holding an object. The log holds
 * only mutations that `apply` accepted, so this shallow check is all a reader needs.
 */
export function isMut(value: unknown): value is Mut {
  if (!isPlainObject(value)) return false
  const [key, ...more] = Object.keys(value)
  return more.length === 0 && mutationKinds.some((k) => k === key) && isPlainObject(value[key])
}

function itemError(
  index: number,
  id: string | undefined,
  type: string,
  description: string,
  status = 409,
): LakeError {
  return mutationError(
    `The mutation(s) failed: ${description}`,
    [{error: {id, type, description}, index}],
    status,
  )
}

function checkId(id: unknown, index: number): string {
  if (typeof id !== 'string' || !idPattern.test(id)) {
    throw itemError(
      index,
      typeof id === 'string' ? id : undefined,
      'invalidDocumentIdError',
      `Malformed document ID: ${JSON.stringify(id)}`,
      400,
    )
  }
  return id
}

/** Adds `_key` to objects in arrays that lack one (`autoGenerateArrayKeys`). */
export function withArrayKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => {
      const keyed = withArrayKeys(item)
      return isPlainObject(keyed) && typeof keyed._key !== 'string'
        ? {_key: randomBytes(6).toString('hex'), ...keyed}
        : keyed
    })
  }
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withArrayKeys(v)]))
  }
  return value
}

/** A document's fields with array keys added; its system fields are strings and stay as they are. */
function docWithArrayKeys(doc: Doc): Doc {
  const fields = Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, withArrayKeys(v)]))
  return {...fields, _id: doc._id, _type: doc._type}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Working state of one transaction: applies mutations one after another over the committed
 * documents, so later mutations see earlier ones, and yields the changes to commit as a unit.
 */
export class TransactionBuilder implements WorkingState {
  readonly id: string
  readonly timestamp: string
  private readonly overlay = new Map<string, Doc | null>()
  private readonly original = new Map<string, Doc | null>()
  private readonly applied = new Map<string, Mut[]>()
  private readonly autoKeys: boolean

  private readonly base: TransactionBase
  private readonly resolveQuery: QueryResolver

  constructor(
    base: TransactionBase,
    resolveQuery: QueryResolver,
    options: {transactionId?: string; timestamp?: Date; autoGenerateArrayKeys?: boolean} = {},
  ) {
    this.base = base
    this.resolveQuery = resolveQuery
    this.id = options.transactionId ?? newTransactionId()
    // Sanity's system timestamps are second-precision ISO strings in UTC.
    this.timestamp = (options.timestamp ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z')
    this.autoKeys = options.autoGenerateArrayKeys ?? false
  }

  get(id: string): Doc | null {
    if (this.overlay.has(id)) return this.overlay.get(id) ?? null
    return this.base.get(id) ?? null
  }

  /** All documents as this transaction currently sees them, in the order of `*`. */
  documents(): Doc[] {
    if (this.overlay.size === 0) return this.base.snapshot()
    return overlaid(this.base.snapshot(), this.ownChanges())
  }

  differences(): Array<[string, CoalescedChange<Doc>]> {
    const merged = new ChangeOverlay<Doc>()
    for (const [id, change] of this.base.pendingChanges?.()?.entries() ?? [])
      merged.setCoalesced(id, change)
    // This transaction's own changes are one net change each: a delete and create within it
    // replace the document in place, as its commit will.
    for (const [id, doc] of this.overlay) merged.set(id, doc)
    return [...merged.entries()]
  }

  /** This transaction's net changes over its base (a re-creation within it replaces in place). */
  private ownChanges(): Array<[string, CoalescedChange<Doc>]> {
    return [...this.overlay].map(([id, value]) => [id, {value, recreated: false}])
  }

  private put(id: string, doc: Doc | null, mutation: Mut): void {
    if (!this.original.has(id)) this.original.set(id, this.base.get(id) ?? null)
    this.overlay.set(id, doc)
    const list = this.applied.get(id) ?? []
    list.push(mutation)
    this.applied.set(id, list)
  }

  private stamp(doc: Doc, previous: Doc | null): Doc {
    const body = this.autoKeys ? docWithArrayKeys(doc) : doc
    return {
      ...body,
      _createdAt:
        previous?._createdAt ??
        (typeof doc._createdAt === 'string' ? doc._createdAt : this.timestamp),
      _updatedAt: this.timestamp,
      _rev: this.id,
    }
  }

  private newDocument(input: unknown, index: number, kind: string): Doc {
    if (!isPlainObject(input))
      throw badRequest(`${kind} at index ${index} must be a document object`)
    // A copy of the top level (the id may be filled in below); nested values are taken over as
    // they are, so callers hand mutations over and do not modify them afterwards (Lake.mutate).
    const doc = {...input}
    if (doc._id === undefined) doc._id = randomUUID()
    // An id ending in "." asks for a generated id under that prefix, e.g. "drafts.".
    else if (typeof doc._id === 'string' && doc._id.endsWith('.'))
      doc._id = `${doc._id}${randomUUID()}`
    checkId(doc._id, index)
    if (typeof doc._type !== 'string' || doc._type === '') {
      throw itemError(
        index,
        String(doc._id),
        'validationError',
        `Document ${JSON.stringify(doc._id)} has no _type`,
        400,
      )
    }
    if (!isDoc(doc)) throw badRequest(`${kind} at index ${index} is not a document`)
    return doc
  }

  /** Applies one mutation; throws a LakeError (and the whole transaction is dropped) on failure. */
  async apply(mutation: unknown, index: number): Promise<MutationResult[]> {
    const {kind, body} = kindOf(mutation, index)
    switch (kind) {
      case 'create': {
        const doc = this.newDocument(body, index, kind)
        if (this.get(doc._id)) {
          throw itemError(
            index,
            doc._id,
            'documentAlreadyExistsError',
            `Document by ID "${doc._id}" already exists`,
          )
        }
        this.put(doc._id, this.stamp(doc, null), {create: doc})
        return [{id: doc._id, operation: 'create'}]
      }
      case 'createIfNotExists': {
        const doc = this.newDocument(body, index, kind)
        if (this.get(doc._id)) return [{id: doc._id, operation: 'none'}]
        this.put(doc._id, this.stamp(doc, null), {createIfNotExists: doc})
        return [{id: doc._id, operation: 'create'}]
      }
      case 'createOrReplace': {
        const doc = this.newDocument(body, index, kind)
        const previous = this.get(doc._id)
        this.put(doc._id, this.stamp(doc, previous), {createOrReplace: doc})
        return [{id: doc._id, operation: previous ? 'update' : 'create'}]
      }
      case 'delete': {
        const ids = await this.select(body, index, kind)
        return ids.map((id) => {
          if (!this.get(id)) return {id, operation: 'none' as const}
          this.put(id, null, {delete: {id}})
          return {id, operation: 'delete' as const}
        })
      }
      case 'patch': {
        if (!isPlainObject(body)) throw badRequest(`patch at index ${index} must be an object`)
        const ids = await this.select(body, index, kind)
        return ids.map((id) => this.patchOne(id, body as PatchBody, index))
      }
    }
  }

  private async select(body: unknown, index: number, kind: string): Promise<string[]> {
    if (!isPlainObject(body)) throw badRequest(`${kind} at index ${index} must be an object`)
    if (typeof body.id === 'string') return [checkId(body.id, index)]
    if (typeof body.query === 'string') {
      const params = isPlainObject(body.params) ? body.params : {}
      return this.resolveQuery(body.query, params, this)
    }
    throw badRequest(`${kind} at index ${index} needs an "id" or a "query"`)
  }

  private patchOne(id: string, patch: PatchBody, index: number): MutationResult {
    const current = this.get(id)
    if (!current) {
      throw itemError(
        index,
        id,
        'documentNotFoundError',
        `Cannot modify nonexistent document "${id}"`,
      )
    }
    if (patch.ifRevisionID !== undefined && patch.ifRevisionID !== current._rev) {
      throw itemError(
        index,
        id,
        'conflictError',
        `Document by ID "${id}" has unexpected revision ID ("${current._rev}"), expected "${patch.ifRevisionID}"`,
      )
    }
    for (const op of ['inc', 'dec'] as const) {
      // @sanity/mutator would apply `+` to whatever it is given and concatenate strings.
      const amounts = patch[op]
      if (
        amounts !== undefined &&
        (!isPlainObject(amounts) ||
          !Object.values(amounts).every((n) => typeof n === 'number' && Number.isFinite(n)))
      ) {
        throw itemError(
          index,
          id,
          'patchError',
          `Invalid patch on "${id}": ${op} takes numbers only`,
          400,
        )
      }
    }
    const {query: _query, params: _params, ...rest} = patch
    const low = {patch: {...structuredClone(rest), id}}
    let next: Doc | null
    try {
      next = new Mutation({mutations: [low]}).apply(structuredClone(current)) as Doc | null
    } catch (error) {
      throw itemError(index, id, 'patchError', `Invalid patch on "${id}": ${messageOf(error)}`, 400)
    }
    if (!next || next._id !== id || typeof next._type !== 'string') {
      throw itemError(
        index,
        id,
        'patchError',
        `A patch may not change or remove _id or _type of "${id}"`,
        400,
      )
    }
    this.put(id, this.stamp(next, current), low)
    return {id, operation: 'update'}
  }

  /** The net change per document, in first-touched order; untouched round trips are dropped. */
  changes(): DocumentChange[] {
    const out: DocumentChange[] = []
    for (const [id, before] of this.original) {
      const after = this.overlay.get(id) ?? null
      if (before === null && after === null) continue
      out.push({id, before, after, mutations: this.applied.get(id) ?? []})
    }
    return out
  }
}
