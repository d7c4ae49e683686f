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
export function clauseCount(texts: SearchableText, clause: TextClause): number {
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

/**
 * Whether the texts satisfy every clause, and a relevance: the sum over positive clauses of a
 * saturating term frequency (as groq-js scores `match`). A query without a positive clause matches
 * nothing: a search for only `-word` would otherwise return the whole dataset.
 */
export function scoreText(texts: SearchableText, clauses: TextClause[]): number {
  let score = 0
  let positive = false
  for (const clause of clauses) {
    const count = clauseCount(texts, clause)
    if (clause.negated) {
      if (count > 0) return 0
      continue
    }
    if (count === 0) return 0
    positive = true
    score += (count * 2.2) / (count + 1.2)
  }
  return positive ? score : 0
}
