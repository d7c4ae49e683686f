/**
 * How deeply a JSON body or parameter may nest. A Studio document is a dozen levels at most
 * (document, array, block, children, span, marks); 100 leaves room for any real schema, while
 * the lake's recursive steps (JSON.stringify of params, GROQ evaluation, patching) stay far from
 * the stack's limit. Deeper input is refused before it is parsed (security review 2, finding 1:
 * 600 KB of nested `params` overflowed the stack and cost ~280 ms of parsing each).
 */
export const maxJsonDepth = 100

const openBrace = 0x7b
const closeBrace = 0x7d
const openBracket = 0x5b
const closeBracket = 0x5d
const quote = 0x22
const backslash = 0x5c

/**
 * The nesting depth of JSON text, or `Infinity` as soon as it passes `limit`: one pass, no
 * recursion, brackets inside strings ignored. It does not validate; JSON.parse does that after.
 */
export function jsonDepth(text: string, limit = maxJsonDepth): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === backslash) i++
      else if (code === quote) inString = false
      continue
    }
    if (code === quote) inString = true
    else if (code === openBrace || code === openBracket) {
      depth++
      if (depth > limit) return Infinity
      if (depth > deepest) deepest = depth
    } else if (code === closeBrace || code === closeBracket) depth--
  }
  return deepest
}
