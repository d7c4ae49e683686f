import {createHash} from 'node:crypto'

/**
 * A tiny inline markup for writing post bodies as readable text, turned into Portable Text.
 * `**strong**`, `*em*`, `` `code` ``, `__underline__`, `~~strike-through~~`, `[text](href)`;
 * marks nest, a backslash escapes the next character.
 */

export type BlockStyle = 'normal' | 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6' | 'blockquote'
export type ListType = 'bullet' | 'number'

/** One block as authored: a style, maybe a list type, and marked-up text. */
export interface BlockSource {
  style: BlockStyle
  listItem?: ListType
  text: string
}

export interface Span {
  _type: 'span'
  _key: string
  text: string
  marks: string[]
}

export interface LinkDef {
  _key: string
  _type: 'link'
  href: string
}

export interface Block {
  _type: 'block'
  _key: string
  style: BlockStyle
  listItem?: ListType
  level?: number
  markDefs: LinkDef[]
  children: Span[]
}

export const p = (text: string): BlockSource => ({style: 'normal', text})
export const quote = (text: string): BlockSource => ({style: 'blockquote', text})
export const h1 = (text: string): BlockSource => ({style: 'h1', text})
export const h2 = (text: string): BlockSource => ({style: 'h2', text})
export const h3 = (text: string): BlockSource => ({style: 'h3', text})
export const h4 = (text: string): BlockSource => ({style: 'h4', text})
export const h5 = (text: string): BlockSource => ({style: 'h5', text})
export const h6 = (text: string): BlockSource => ({style: 'h6', text})
export const bullet = (text: string): BlockSource => ({style: 'normal', listItem: 'bullet', text})
export const numbered = (text: string): BlockSource => ({style: 'normal', listItem: 'number', text})

// Longest tokens first, so `**` is never read as two `*`.
const decorators: [token: string, mark: string][] = [
  ['**', 'strong'],
  ['__', 'underline'],
  ['~~', 'strike-through'],
  ['*', 'em'],
  ['`', 'code'],
]

/** A stable 12-hex key, like the Studio's random ones, so rebuilding the seed changes nothing. */
export function stableKey(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 12)
}

/** Turns one authored block into a Portable Text block; `keySeed` must be unique per block. */
export function toBlock(source: BlockSource, keySeed: string): Block {
  const markDefs: LinkDef[] = []
  const spans: {text: string; marks: string[]}[] = []
  const active: string[] = []
  let link: string | undefined
  let text = ''
  const flush = () => {
    if (text === '') return
    const marks = link ? [...active, link] : [...active]
    const last = spans.at(-1)
    if (last && last.marks.join() === marks.join()) last.text += text
    else spans.push({text, marks})
    text = ''
  }
  const src = source.text
  for (let i = 0; i < src.length;) {
    const inCode = active.includes('code')
    if (src[i] === '\\' && !inCode) {
      text += src[i + 1] ?? ''
      i += 2
      continue
    }
    const decorator = decorators.find(([token]) => src.startsWith(token, i))
    if (decorator && (!inCode || decorator[1] === 'code')) {
      flush()
      const at = active.indexOf(decorator[1])
      if (at === -1) active.push(decorator[1])
      else active.splice(at, 1)
      i += decorator[0].length
    } else if (src[i] === '[' && !inCode && !link) {
      flush()
      const close = src.indexOf('](', i)
      const end = src.indexOf(')', close)
      if (close === -1 || end === -1) throw new Error(`Unclosed link in "${src}"`)
      link = stableKey(`${keySeed}/link/${markDefs.length}`)
      markDefs.push({_key: link, _type: 'link', href: src.slice(close + 2, end)})
      i += 1
    } else if (src.startsWith('](', i) && link) {
      flush()
      link = undefined
      i = src.indexOf(')', i) + 1
    } else {
      text += src[i]
      i += 1
    }
  }
  flush()
  if (active.length > 0 || link) throw new Error(`Unclosed mark ${active.join()} in "${src}"`)
  const key = stableKey(keySeed)
  return {
    _type: 'block',
    _key: key,
    style: source.style,
    ...(source.listItem ? {listItem: source.listItem, level: 1} : {}),
    markDefs,
    children: spans.map((span, index) => ({
      _type: 'span',
      _key: stableKey(`${keySeed}/span/${index}`),
      ...span,
    })),
  }
}
