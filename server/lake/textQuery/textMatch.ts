import {foldWords, type TextClause} from '../../../shared/textQuerySyntax.ts'

/**
 * Every folded word seen, numbered, and each number's word. A document's texts are kept as
 * numbers, not strings: at 10k posts a worker held 2.6 million word strings in 150k arrays, three
 * quarters of its heap's objects, which each full garbage collection (10–27 ms, on the thread
 * answering searches) traced and moved (docs/search.md, "Postings"). Past `maxWords` the
 * numbering restarts; texts folded before are folded again when next read (their `generation`
 * says so).
 */
const wordIds = new Map<string, number>()
const vocabulary: string[] = []
const maxWords = 1_000_000
let generation = 0

/** Between two strings' words in a sequence: no word has it, so a phrase never spans two. */
const gap = -1

/** A document's folded texts for one path, as word numbers, with its sorted distinct ones once a search needed them. */
export interface FoldedText {
  /** Each string's word numbers in order, strings separated by `gap`. */
  words: Int32Array
  /** The numbering the words are in (`wordGeneration()`); an older one means nothing now. */
  generation: number
  ids?: Int32Array
}

function numberOf(word: string): number {
  let id = wordIds.get(word)
  if (id === undefined) {
    id = vocabulary.push(word) - 1
    wordIds.set(word, id)
  }
  return id
}

function restartIfFull(): void {
  if (wordIds.size <= maxWords) return
  wordIds.clear()
  vocabulary.length = 0
  generation++
}

/** The folded words of each string a document offers to a search, numbered. */
export function searchableText(strings: Iterable<string>): FoldedText {
  restartIfFull()
  const out: number[] = []
  for (const text of strings) {
    const words = foldWords(text)
    if (words.length === 0) continue
    if (out.length > 0) out.push(gap)
    for (const word of words) out.push(numberOf(word))
  }
  return {words: Int32Array.from(out), generation}
}

/** Several paths' texts as one (an array of paths offers its elements' strings in order). */
export function joinedText(parts: FoldedText[]): FoldedText {
  const nonEmpty = parts.filter((part) => part.words.length > 0)
  const words = new Int32Array(
    nonEmpty.reduce((sum, part) => sum + part.words.length, 0) + Math.max(0, nonEmpty.length - 1),
  )
  let at = 0
  for (const [i, part] of nonEmpty.entries()) {
    if (i > 0) words[at++] = gap
    words.set(part.words, at)
    at += part.words.length
  }
  return {words, generation}
}

/** Whether a text was folded in the current numbering (else it must be folded again). */
export function isCurrent(text: FoldedText): boolean {
  return text.generation === generation
}

function wordMatches(id: number, wanted: number, prefix: string | undefined): boolean {
  if (prefix === undefined) return id === wanted
  return id !== gap && (vocabulary[id] ?? '').startsWith(prefix)
}

/** Whether the clause occurs in the texts. */
function occurs(folded: FoldedText, clause: TextClause): boolean {
  const last = clause.words.length - 1
  // A whole word no text has cannot occur; a prefix is compared as a string.
  const wanted: number[] = []
  for (const [i, word] of clause.words.entries()) {
    const id = clause.prefix && i === last ? gap : wordIds.get(word)
    if (id === undefined) return false
    wanted.push(id)
  }
  const prefix = clause.prefix ? clause.words[last] : undefined
  const words = folded.words
  for (let start = 0; start + last < words.length; start++) {
    let all = true
    for (let i = 0; i <= last && all; i++) {
      all = wordMatches(
        words[start + i] as number,
        wanted[i] ?? gap,
        i === last ? prefix : undefined,
      )
    }
    if (all) return true
  }
  return false
}

/**
 * The sorted distinct word numbers of a text: searched by bisection (contiguous memory;
 * thousands of per-document Sets were slower to probe). Sorted and deduplicated in place (a Set
 * per document cost most of a worker's warm-up in allocations and collections).
 */
export function idsOf(folded: FoldedText): Int32Array {
  if (folded.ids) return folded.ids
  const all = folded.words.slice()
  all.sort()
  let unique = 0
  for (let i = 0; i < all.length; i++)
    if (all[i] !== gap && (i === 0 || all[i] !== all[i - 1])) all[unique++] = all[i] as number
  folded.ids = all.slice(0, unique)
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
      const id = wordIds.get(only)
      found = id !== undefined && hasId(idsOf(folded), id)
    } else found = occurs(folded, clause)
    if (clause.negated) {
      if (found) return false
      continue
    }
    if (!found) return false
    positive = true
  }
  return positive
}

/**
 * How many times the clause occurs in the texts: a word's occurrences, a phrase's (its words in
 * a row), or the words starting with a prefix (each a term of groq-js's `match`, whose score
 * counts the tokens a term matches). `prefixes` remembers, for this query, which word numbers
 * start with a prefix, so each distinct word is compared as a string once.
 */
export function occurrences(
  folded: FoldedText,
  clause: TextClause,
  prefixes: Map<number, boolean>,
): number {
  const last = clause.words.length - 1
  const wanted: number[] = []
  for (const [i, word] of clause.words.entries()) {
    const id = clause.prefix && i === last ? gap : wordIds.get(word)
    if (id === undefined) return 0
    wanted.push(id)
  }
  const prefix = clause.prefix ? clause.words[last] : undefined
  const matches = (id: number, i: number): boolean => {
    if (i !== last || prefix === undefined) return id === wanted[i]
    if (id === gap) return false
    let known = prefixes.get(id)
    if (known === undefined) prefixes.set(id, (known = (vocabulary[id] ?? '').startsWith(prefix)))
    return known
  }
  const words = folded.words
  let count = 0
  for (let start = 0; start + last < words.length; start++) {
    let all = true
    for (let i = 0; i <= last && all; i++) all = matches(words[start + i] as number, i)
    if (all) count++
  }
  return count
}
