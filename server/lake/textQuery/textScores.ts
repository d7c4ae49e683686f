import type {TextClause} from '../../../shared/textQuerySyntax.ts'
import {entriesOf, frequencyOf, positionOf, saturatedFrequency, type Postings} from './postings.ts'
import type {ScratchArrays} from './scratchArrays.ts'
import {occurrences, wordIdOf, type FoldedText} from './textMatch.ts'

/**
 * groq-js's score of a term its `match` found `frequency` times (`processMatchScore`: BM25's
 * saturation with k1 = 1.2, so once scores 1 and each further time less). The same expression,
 * so that sums agree with groq-js's to the last bit.
 */
export function saturated(frequency: number): number {
  return (frequency * 2.2) / (frequency + 1.2)
}

/** `saturated(f)` for the frequencies a posting entry stores below its cap: a read, not a division. */
const saturatedOf = Float64Array.from({length: saturatedFrequency}, (_, f) => saturated(f))

/**
 * How well each document of one view matched one `<left> match text::query(q)`: as groq-js
 * scores `<left> match q`, the sum over the query's terms (its positive clauses, in order; a
 * phrase or a prefix is one term) of `saturated(how often it occurs in the text searched)`. A
 * document the query does not match scores 0 (groq-js scores a `match` it finds only some terms
 * of; a `text::query()` match is all or nothing, so the Studio's `[_score > 0]` keeps meaning
 * "matched"). A lone `*` (every document) scores 1, one term found once.
 *
 * Whole words' frequencies come from the view's postings (postings.ts: stored in each entry
 * beside its position); phrases and prefixes are counted in the document's folded text.
 */
export class TextScores {
  private readonly terms: TextClause[]
  private readonly everything: boolean
  /** Per term, which word numbers start with its prefix (textMatch.ts `occurrences`). */
  private readonly prefixes: Array<Map<number, boolean>>
  private readonly textAt: (position: number) => FoldedText
  private readonly postings: Postings | undefined
  private readonly scratch: ScratchArrays

  constructor(
    clauses: TextClause[] | 'everything',
    textAt: (position: number) => FoldedText,
    postings: Postings | undefined,
    scratch: ScratchArrays,
  ) {
    this.textAt = textAt
    this.postings = postings
    this.scratch = scratch
    this.everything = clauses === 'everything'
    this.terms = clauses === 'everything' ? [] : clauses.filter((clause) => !clause.negated)
    this.prefixes = this.terms.map(() => new Map())
  }

  /** How many terms a score sums (what groq-js's `match` would be given). */
  get termCount(): number {
    return this.everything ? 1 : this.terms.length
  }

  /** How often each term occurs in the text at `position` (a document that matched). */
  frequencies(position: number): number[] {
    if (this.everything) return [1]
    return this.terms.map((term, k) =>
      occurrences(this.textAt(position), term, this.prefixes[k] as Map<number, boolean>),
    )
  }

  /** The score of the document at `position`, which matched. */
  at(position: number): number {
    let score = 0
    for (const frequency of this.frequencies(position)) score += saturated(frequency)
    return score
  }

  /**
   * Adds to `out[i]` the score of the document at `positions[i]` (ascending) where `bits` says
   * it matched, plus `weight` (a `boost()`'s; 0 without one): groq-js's `score()` adds each
   * argument's score, and `boost()` its weight to a score above 0. A term at a time over all
   * rows, as groq-js adds them per document: a whole word's frequencies in one pass over its
   * posting entries beside the rows (at 10k posts, three such columns per search).
   */
  column(positions: Int32Array, bits: Uint8Array, out: Float64Array, weight: number): void {
    if (this.everything) {
      for (let i = 0; i < positions.length; i++)
        if (bits[positions[i] as number] === 1)
          out[i] = (out[i] as number) + (saturated(1) + weight)
      return
    }
    // One term (the common case) adds straight to `out`; several are summed per row first.
    const own = this.terms.length === 1 ? undefined : this.scratch.float64(positions.length)
    for (const [k, term] of this.terms.entries()) {
      const prefixes = this.prefixes[k] as Map<number, boolean>
      const word = term.words.length === 1 && !term.prefix ? term.words[0] : undefined
      const id = word === undefined ? undefined : wordIdOf(word)
      const entries = this.postings && id !== undefined ? entriesOf(this.postings, id) : undefined
      let j = 0
      for (let i = 0; i < positions.length; i++) {
        const position = positions[i] as number
        if (bits[position] !== 1) continue
        let frequency = 0
        if (entries) {
          while (j < entries.length && positionOf(entries[j] as number) < position) j++
          if (j < entries.length && positionOf(entries[j] as number) === position)
            frequency = frequencyOf(entries[j] as number)
        }
        if (!entries || frequency === saturatedFrequency)
          frequency = occurrences(this.textAt(position), term, prefixes)
        const score =
          frequency < saturatedFrequency ? (saturatedOf[frequency] as number) : saturated(frequency)
        if (own) own[i] = (own[i] as number) + score
        else if (score > 0) out[i] = (out[i] as number) + (score + weight)
      }
    }
    if (own)
      for (let i = 0; i < own.length; i++) {
        const score = own[i] as number
        if (score > 0) out[i] = (out[i] as number) + (score + weight)
      }
  }
}
