import type {TextClause} from '../../../shared/textQuerySyntax.ts'
import {frequenciesAt, saturatedFrequency, type Postings} from './postings.ts'
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
   * `own[i]` = the score of the document at `positions[i]` (ascending) where `bits` says it
   * matched; `own` holds zeros. A term at a time over all rows, as groq-js adds them per
   * document: a whole word's frequencies in one pass over its posting list.
   */
  column(positions: Int32Array, bits: Uint8Array, own: Float64Array): void {
    if (this.everything) {
      for (let i = 0; i < positions.length; i++)
        if (bits[positions[i] as number] === 1) own[i] = saturated(1)
      return
    }
    const frequencies = this.postings ? this.scratch.int32(positions.length) : undefined
    for (const [k, term] of this.terms.entries()) {
      const prefixes = this.prefixes[k] as Map<number, boolean>
      const word = term.words.length === 1 && !term.prefix ? term.words[0] : undefined
      const id = word === undefined ? undefined : wordIdOf(word)
      if (frequencies && this.postings && id !== undefined) {
        frequenciesAt(this.postings, id, positions, frequencies)
        for (let i = 0; i < positions.length; i++) {
          const position = positions[i] as number
          if (bits[position] !== 1) continue
          let frequency = frequencies[i] as number
          if (frequency === saturatedFrequency)
            frequency = occurrences(this.textAt(position), term, prefixes)
          own[i] = (own[i] as number) + saturated(frequency)
        }
      } else
        for (let i = 0; i < positions.length; i++) {
          const position = positions[i] as number
          if (bits[position] === 1)
            own[i] =
              (own[i] as number) + saturated(occurrences(this.textAt(position), term, prefixes))
        }
    }
  }
}
