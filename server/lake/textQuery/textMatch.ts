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

/** A document's folded texts for one path, with its sorted word ids once a search needed them. */
export interface FoldedText {
  texts: SearchableText
  ids?: Int32Array
  generation?: number
}

/**
 * Every folded word seen, numbered: a document's words become a small sorted array of numbers,
 * searched by bisection (contiguous memory; thousands of per-document Sets were slower to probe).
 * Past `maxWords` the numbering restarts and each document's array is rebuilt when next used.
 */
const wordIds = new Map<string, number>()
const maxWords = 1_000_000
let generation = 0

export function idsOf(folded: FoldedText): Int32Array {
  if (folded.ids && folded.generation === generation) return folded.ids
  if (wordIds.size > maxWords) {
    wordIds.clear()
    generation++
  }
  let count = 0
  for (const words of folded.texts) count += words.length
  // Numbered into a typed array, sorted, then deduplicated in place (a Set per document cost
  // most of a worker's warm-up in allocations and collections).
  const all = new Int32Array(count)
  let n = 0
  for (const words of folded.texts)
    for (const word of words) {
      let id = wordIds.get(word)
      if (id === undefined) wordIds.set(word, (id = wordIds.size))
      all[n++] = id
    }
  all.sort()
  let unique = 0
  for (let i = 0; i < all.length; i++)
    if (i === 0 || all[i] !== all[i - 1]) all[unique++] = all[i] as number
  folded.ids = all.slice(0, unique)
  folded.generation = generation
  return folded.ids
}

/** The number of a folded word, undefined if no text seen has it (then no text holds it). */
export function wordIdOf(word: string): number | undefined {
  return wordIds.get(word)
}

/** Bumped when the numbering restarts: word numbers of an older generation mean nothing. */
export function wordGeneration(): number {
  return generation
}

function hasId(ids: Int32Array, id: number): boolean {
  let low = 0
  let high = ids.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const value = ids[middle] ?? 0
    if (value === id) return true
    if (value < id) low = middle + 1
    else high = middle - 1
  }
  return false
}

/**
 * Whether the texts satisfy every clause: each positive one occurs, no negated one does. A query
 * without a positive clause matches nothing: a search for only `-word` would otherwise return the
 * whole dataset. A clause of one whole word is a lookup among the text's word ids.
 */
export function satisfies(folded: FoldedText, clauses: TextClause[]): boolean {
  let positive = false
  for (const clause of clauses) {
    const only = clause.words[0]
    let found: boolean
    if (clause.words.length === 1 && !clause.prefix && only !== undefined) {
      const ids = idsOf(folded)
      const id = wordIds.get(only)
      found = id !== undefined && hasId(ids, id)
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
