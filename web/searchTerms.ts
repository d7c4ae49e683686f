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
  const words = [...text.matchAll(/[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu)]
  const first = words.find((word) => isMatch(word[0]))
  const center = first?.index ?? 0
  let start = Math.max(0, center - snippetRadius)
  let end = Math.min(text.length, center + snippetRadius)
  // Whole words at both ends.
  while (start > 0 && /\S/.test(text[start - 1] ?? '')) start--
  while (end < text.length && /\S/.test(text[end] ?? '')) end++
  const parts: Snippet = []
  if (start > 0) parts.push({text: '… ', marked: false})
  let at = start
  for (const word of words) {
    const index = word.index ?? 0
    if (index < start || index + word[0].length > end || !isMatch(word[0])) continue
    if (index > at) parts.push({text: text.slice(at, index), marked: false})
    parts.push({text: word[0], marked: true})
    at = index + word[0].length
  }
  if (end > at) parts.push({text: text.slice(at, end), marked: false})
  if (end < text.length) parts.push({text: ' …', marked: false})
  return parts
}
