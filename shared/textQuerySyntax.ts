/**
 * The query language of GROQ's `text::query(str)` (Sanity's docs, GROQ functions: `text::query`):
 * words that must all occur, `"quoted phrases"` whose words occur next to each other, `-word` or
 * `-"phrase"` that must not occur, and `word*`, a prefix. Anything else is a separator, so no input
 * is a syntax error: an unbalanced quote runs to the end, a lone `-` or `*` is dropped.
 * Words are compared folded (see `foldWords`): case, accents and Unicode forms do not matter.
 */
export type TextClause = {
  /** Folded words; a phrase has several, which must be consecutive. */
  words: string[]
  /** The last word is a prefix (`word*`). */
  prefix: boolean
  negated: boolean
}

/** At most this many clauses are kept; the rest of a longer query is ignored. */
export const maxTextClauses = 32

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ascii = /^[\u0000-\u007f]*$/
/** The word pattern below restricted to ASCII, where NFKD changes nothing and no mark exists. */
const asciiWord = /[a-z0-9]+(?:'[a-z0-9]+)*/g

/** Splits text into folded words: letters, digits and combining marks, apostrophes inside. */
export function foldWords(text: string): string[] {
  // Most text is ASCII: the same words without normalising (a worker folds every post at start).
  if (ascii.test(text)) return text.toLowerCase().match(asciiWord) ?? []
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []
  ).map((word) => word.replace(/’/g, "'"))
}

export function parseTextQuery(query: string): TextClause[] {
  const clauses: TextClause[] = []
  // A clause: optional '-', then a quoted phrase (closing quote optional) or a run of non-spaces.
  const clause = /(-?)(?:"([^"]*)"?|([^\s"]+))(\*?)/gu
  for (const found of query.matchAll(clause)) {
    const [, minus, phrase, bare, star] = found
    const raw = phrase ?? bare ?? ''
    const prefix = star === '*' || (phrase === undefined && raw.endsWith('*'))
    const words = foldWords(raw)
    if (words.length === 0) continue
    clauses.push({words, prefix, negated: minus === '-'})
    if (clauses.length === maxTextClauses) break
  }
  return clauses
}
