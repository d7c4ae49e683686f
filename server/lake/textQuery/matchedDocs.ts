import type {Doc} from '../types.ts'
import type {TextScores} from './textScores.ts'

/**
 * Which documents of one view (the array a query reads) satisfy a `text::query()` match: a byte
 * per position, so the hot paths (the native pipeline's filter and `score()`) test a document by
 * its position instead of hashing its id. `has(id)` keeps the exact meaning of membership by id
 * (any document with that `_id` matched) for groq-js's evaluation and for views whose ids repeat.
 */
export class MatchedDocs {
  readonly size: number
  private readonly docs: Doc[]
  private readonly bits: Uint8Array
  /** Each `_id` occurs once in the view: the matched positions are all its matches by id. */
  readonly byPosition: boolean
  private ids: Set<string> | undefined
  private sorted: Int32Array | undefined

  /** How well each matched document matched (textScores.ts); none: each scores 0. */
  private readonly scores: TextScores | undefined

  constructor(docs: Doc[], bits: Uint8Array, uniqueIds: boolean, scores?: TextScores) {
    this.docs = docs
    this.bits = bits
    this.byPosition = uniqueIds
    this.scores = scores
    let size = 0
    for (let i = 0; i < bits.length; i++) size += bits[i] as number
    this.size = size
  }

  private byIdBits: Uint8Array | undefined

  /**
   * Whether each position of the view matched by id (a document there whose `_id` matched at
   * any position): the bits themselves when ids are unique, else computed once.
   */
  positionBits(): Uint8Array {
    if (this.byPosition) return this.bits
    if (!this.byIdBits) {
      const bits = new Uint8Array(this.docs.length)
      for (let i = 0; i < bits.length; i++) if (this.has((this.docs[i] as Doc)._id)) bits[i] = 1
      this.byIdBits = bits
    }
    return this.byIdBits
  }

  has(id: string): boolean {
    if (!this.ids) {
      this.ids = new Set()
      const positions = this.positions()
      for (let k = 0; k < positions.length; k++)
        this.ids.add((this.docs[positions[k] as number] as Doc)._id)
    }
    return this.ids.has(id)
  }

  /** Whether `doc`, found at `position` of the view (if known), matched. */
  hasAt(doc: Doc, position: number | undefined): boolean {
    if (position !== undefined && this.byPosition && this.docs[position] === doc)
      return this.bits[position] === 1
    return this.has(doc._id)
  }

  private firstPositions: Map<string, number> | undefined

  /**
   * Where the document of `id` matched: its first matched position. By id, as membership is:
   * groq-js's evaluation asks by `_id` only, and a view whose ids repeat matches by id.
   */
  private matchedPosition(id: string): number | undefined {
    if (!this.firstPositions) {
      this.firstPositions = new Map()
      const positions = this.positions()
      for (let k = 0; k < positions.length; k++) {
        const position = positions[k] as number
        const docId = (this.docs[position] as Doc)._id
        if (!this.firstPositions.has(docId)) this.firstPositions.set(docId, position)
      }
    }
    return this.firstPositions.get(id)
  }

  /** How often each term of the query occurs in the document of `id`; undefined if it did not match. */
  frequenciesOf(id: string): number[] | undefined {
    const position = this.matchedPosition(id)
    return position === undefined || !this.scores ? undefined : this.scores.frequencies(position)
  }

  /** How many terms the query's score sums (0: it scores nothing). */
  get termCount(): number {
    return this.scores?.termCount ?? 0
  }

  /** The score of `doc`, found at `position` of the view (if known): 0 when it did not match. */
  scoreOf(doc: Doc, position: number | undefined): number {
    if (!this.scores) return 0
    if (position !== undefined && this.byPosition && this.docs[position] === doc)
      return this.bits[position] === 1 ? this.scores.at(position) : 0
    const matched = this.matchedPosition(doc._id)
    return matched === undefined ? 0 : this.scores.at(matched)
  }

  /**
   * Adds to `out[i]` the score of the document at `positions[i]` (ascending), plus `weight`
   * where it is above 0 (textScores.ts `column`).
   */
  scoreColumn(positions: Int32Array, out: Float64Array, weight: number): void {
    if (!this.scores) return
    if (this.byPosition) {
      this.scores.column(positions, this.bits, out, weight)
      return
    }
    for (let i = 0; i < positions.length; i++) {
      const score = this.scoreOf(this.docs[positions[i] as number] as Doc, undefined)
      if (score > 0) out[i] = (out[i] as number) + (score + weight)
    }
  }

  /** The matched positions, ascending (dataset order). */
  positions(): Int32Array {
    if (this.sorted) return this.sorted
    const sorted = new Int32Array(this.size)
    let n = 0
    for (let i = 0; i < this.bits.length; i++) if (this.bits[i] === 1) sorted[n++] = i
    return (this.sorted = sorted)
  }
}

/** Per view, whether each `_id` occurs once (a perspective's view; a test's array may repeat). */
const uniqueByView = new WeakMap<Doc[], boolean>()

export function idsAreUnique(docs: Doc[]): boolean {
  let unique = uniqueByView.get(docs)
  if (unique === undefined) {
    unique = new Set(docs.map((doc) => doc._id)).size === docs.length
    uniqueByView.set(docs, unique)
  }
  return unique
}

const byIdByView = new WeakMap<Doc[], Map<string, Doc>>()

/**
 * The view's documents by `_id` (the first of each id, as groq-js dereferences), once per view:
 * a search's page dereferences each card's image asset, and a map of 10k posts built per query
 * cost more than the search.
 */
export function docsById(docs: Doc[]): Map<string, Doc> {
  let byId = byIdByView.get(docs)
  if (!byId) {
    byId = new Map()
    for (const doc of docs) if (!byId.has(doc._id)) byId.set(doc._id, doc)
    byIdByView.set(docs, byId)
  }
  return byId
}
