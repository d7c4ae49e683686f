import {describe, expect, it} from 'vitest'
import {foldWords, parseTextQuery} from '../shared/textQuerySyntax.ts'
import {snippetOf, type Snippet} from './searchTerms.ts'

/** The snippet by the plain method: every word of the text split out, then the window's marked. */
function reference(text: string, q: string): Snippet {
  const wanted = parseTextQuery(q).filter((clause) => !clause.negated)
  const isMatch = (word: string) => {
    const [folded] = foldWords(word)
    return (
      folded !== undefined &&
      wanted.some((clause) =>
        clause.words.some((want, i) =>
          clause.prefix && i === clause.words.length - 1
            ? folded.startsWith(want)
            : folded === want,
        ),
      )
    )
  }
  const words = [...text.matchAll(/[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu)]
  const center = words.find((word) => isMatch(word[0]))?.index ?? 0
  let start = Math.max(0, center - 90)
  let end = Math.min(text.length, center + 90)
  while (start > 0 && /\S/.test(text[start - 1] ?? '')) start--
  while (end < text.length && /\S/.test(text[end] ?? '')) end++
  const parts: Snippet = start > 0 ? [{text: '… ', marked: false}] : []
  let at = start
  for (const word of words) {
    const index = word.index
    if (index < start || index + word[0].length > end || !isMatch(word[0])) continue
    if (index > at) parts.push({text: text.slice(at, index), marked: false})
    parts.push({text: word[0], marked: true})
    at = index + word[0].length
  }
  if (end > at) parts.push({text: text.slice(at, end), marked: false})
  if (end < text.length) parts.push({text: ' …', marked: false})
  return parts
}

const marked = (snippet: Snippet) => snippet.filter((part) => part.marked).map((part) => part.text)

describe('snippetOf', () => {
  it('centres on the first matched word, deep in a long body, and marks every match near it', () => {
    const body = `${'Orchards and terraces. '.repeat(400)}A Walnut, then (walnut) again; walnuts too.`
    const snippet = snippetOf(body, 'walnut')
    expect(snippet[0]).toEqual({text: '… ', marked: false})
    expect(marked(snippet)).toEqual(['Walnut', 'walnut'])
    expect(snippet.map((part) => part.text).join('')).toContain('A Walnut, then (walnut) again')
  })

  it('marks prefixes and folded accents, never an excluded word', () => {
    expect(marked(snippetOf('Déjà vu at the café, cafés all round.', 'cafe* -vu'))).toEqual([
      'café',
      'cafés',
    ])
  })

  it('starts at the beginning when only the title or excerpt matched', () => {
    const snippet = snippetOf('The valley road climbs past the orchards. '.repeat(10), 'pecan')
    expect(snippet[0]?.text.startsWith('The valley road')).toBe(true)
    expect(marked(snippet)).toEqual([])
    expect(snippet.at(-1)).toEqual({text: ' …', marked: false})
  })

  it('equals the plain method on generated texts and queries', () => {
    const vocabulary = ['walnut', 'Walnut', 'café', 'orchard', "don't", 'x', '東京', 'road', '42']
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    for (let run = 0; run < 300; run++) {
      const length = Math.floor(next() * 120)
      const separators = [' ', ' ', ', ', '. ', ' (', ') ', '—', '\n\n']
      let text = ''
      for (let i = 0; i < length; i++)
        text += `${vocabulary[Math.floor(next() * vocabulary.length)]}${separators[Math.floor(next() * separators.length)]}`
      const word = vocabulary[Math.floor(next() * vocabulary.length)] ?? 'x'
      for (const q of [word, `${word.slice(0, 3)}*`, `"${word} road"`, `-${word} road`])
        expect(snippetOf(text, q), `${q} in ${text}`).toEqual(reference(text, q))
    }
  })
})
