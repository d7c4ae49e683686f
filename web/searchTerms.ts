import {foldWords, parseTextQuery} from '../shared/textQuerySyntax.ts'

/** A reader's query is cut to this many characters (docs/search.md). */
export const maxSearchLength = 200
/** …and to this many words, phrases and exclusions. */
export const maxSearchClauses = 8

/**
 * The query as the site runs it: control characters dropped, spaces collapsed, at most
 * `maxSearchLength` characters and `maxSearchClauses` clauses. Never fails: any input is a query.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is dropped
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/g

export function searchFromInput(raw: string | null): {q: string; cut: boolean} {
  const clean = (raw ?? '').replace(controlCharacters, ' ').replace(/\s+/g, ' ').trim()
  let q = clean.slice(0, maxSearchLength)
  const clauses = q.match(/-?(?:"[^"]*"?|[^\s"]+)\*?/g) ?? []
  if (clauses.length > maxSearchClauses) q = clauses.slice(0, maxSearchClauses).join(' ')
  return {q, cut: q !== clean}
}

/** A snippet of `text` around the first matched word, as plain and marked parts. */
export type Snippet = Array<{text: string; marked: boolean}>

const snippetRadius = 90
/** A word as the lake folds one (shared/textQuerySyntax.ts), before folding. */
const wordPattern = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu

/**
 * The words are read up to the first match, then only inside the window around it: a post's
 * whole body is not split into words on every search (that was a quarter of what a search's page
 * allocated, docs/search.md "Speed").
 */
export function snippetOf(text: string, q: string): Snippet {
  const wanted = parseTextQuery(q).filter((clause) => !clause.negated)
  const isMatch = (word: string) => {
    const [folded] = foldWords(word)
    if (folded === undefined) return false
    return wanted.some((clause) =>
      clause.words.some((want, i) =>
        clause.prefix && i === clause.words.length - 1 ? folded.startsWith(want) : folded === want,
      ),
    )
  }
  const words = new RegExp(wordPattern)
  let center = 0
  for (let word = words.exec(text); word; word = words.exec(text))
    if (isMatch(word[0])) {
      center = word.index
      break
    }
  let start = Math.max(0, center - snippetRadius)
  let end = Math.min(text.length, center + snippetRadius)
  // Whole words at both ends.
  while (start > 0 && /\S/.test(text[start - 1] ?? '')) start--
  while (end < text.length && /\S/.test(text[end] ?? '')) end++
  const parts: Snippet = []
  if (start > 0) parts.push({text: '… ', marked: false})
  let at = start
  // No word spans `start`: it follows a space or is the text's beginning.
  words.lastIndex = start
  for (let word = words.exec(text); word && word.index < end; word = words.exec(text)) {
    if (word.index + word[0].length > end || !isMatch(word[0])) continue
    if (word.index > at) parts.push({text: text.slice(at, word.index), marked: false})
    parts.push({text: word[0], marked: true})
    at = word.index + word[0].length
  }
  if (end > at) parts.push({text: text.slice(at, end), marked: false})
  if (end < text.length) parts.push({text: ' …', marked: false})
  return parts
}
