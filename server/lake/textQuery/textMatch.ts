import {foldWords, type TextClause} from '../../../shared/textQuerySyntax.ts'

/** The folded words of each string a document offers to a search; a phrase never spans two. */
export type SearchableText = string[][]

export function searchableText(strings: Iterable<string>): SearchableText {
  const texts: SearchableText = []
  for (const text of strings) {
    const words = foldWords(text)
    if (words.length > 0) texts.push(words)
  }
  return texts
}

function wordMatches(word: string, wanted: string, prefix: boolean): boolean {
  return prefix ? word.startsWith(wanted) : word === wanted
}

/** How often the clause occurs in the texts (0 when it does not). */
function clauseCount(texts: SearchableText, clause: TextClause): number {
  const {words: wanted, prefix} = clause
  const last = wanted.length - 1
  let count = 0
  for (const words of texts) {
    for (let start = 0; start + last < words.length; start++) {
      let all = true
      for (let i = 0; i <= last && all; i++) {
        all = wordMatches(words[start + i] ?? '', wanted[i] ?? '', prefix && i === last)
      }
      if (all) count++
    }
  }
  return count
}

/** A document's folded texts for one path, with its set of words once a search needed it. */
export interface FoldedText {
  texts: SearchableText
  words?: Set<string>
}

/**
 * Whether the texts satisfy every clause: each positive one occurs, no negated one does. A query
 * without a positive clause matches nothing: a search for only `-word` would otherwise return the
 * whole dataset. A clause of one whole word is a set lookup (the set built once per text and kept
 * with it).
 */
export function satisfies(folded: FoldedText, clauses: TextClause[]): boolean {
  let positive = false
  for (const clause of clauses) {
    const [only] = clause.words
    let found: boolean
    if (clause.words.length === 1 && !clause.prefix && only !== undefined) {
      folded.words ??= new Set(folded.texts.flat())
      found = folded.words.has(only)
    } else found = clauseCount(folded.texts, clause) > 0
    if (clause.negated) {
      if (found) return false
      continue
    }
    if (!found) return false
    positive = true
  }
  return positive
}
