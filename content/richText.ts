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
  const {spans, markDefs} = new InlineMarkup(source.text, keySeed).parse()
  return {
    _type: 'block',
    _key: stableKey(keySeed),
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

/** One block's text with its decorators, links and escapes, read into spans and link defs. */
class InlineMarkup {
  readonly markDefs: LinkDef[] = []
  readonly spans: {text: string; marks: string[]}[] = []
  private readonly src: string
  private readonly keySeed: string
  private readonly active: string[] = []
  private link: string | undefined
  private text = ''

  constructor(src: string, keySeed: string) {
    this.src = src
    this.keySeed = keySeed
  }

  parse(): this {
    for (let i = 0; i < this.src.length;) i = this.step(i)
    this.flush()
    if (this.active.length > 0 || this.link)
      throw new Error(`Unclosed mark ${this.active.join()} in "${this.src}"`)
    return this
  }

  /** Reads what starts at `i`; returns where the next token starts. */
  private step(i: number): number {
    const {src, active} = this
    const inCode = active.includes('code')
    if (src[i] === '\\' && !inCode) {
      this.text += src[i + 1] ?? ''
      return i + 2
    }
    const decorator = decorators.find(([token]) => src.startsWith(token, i))
    if (decorator && (!inCode || decorator[1] === 'code')) {
      this.flush()
      const at = active.indexOf(decorator[1])
      if (at === -1) active.push(decorator[1])
      else active.splice(at, 1)
      return i + decorator[0].length
    }
    if (src[i] === '[' && !inCode && !this.link) {
      this.flush()
      const close = src.indexOf('](', i)
      const end = src.indexOf(')', close)
      if (close === -1 || end === -1) throw new Error(`Unclosed link in "${src}"`)
      this.link = stableKey(`${this.keySeed}/link/${this.markDefs.length}`)
      this.markDefs.push({_key: this.link, _type: 'link', href: src.slice(close + 2, end)})
      return i + 1
    }
    if (src.startsWith('](', i) && this.link) {
      this.flush()
      this.link = undefined
      return src.indexOf(')', i) + 1
    }
    this.text += src[i]
    return i + 1
  }

  private flush(): void {
    if (this.text === '') return
    const marks = this.link ? [...this.active, this.link] : [...this.active]
    const last = this.spans.at(-1)
    if (last && last.marks.join() === marks.join()) last.text += this.text
    else this.spans.push({text: this.text, marks})
    this.text = ''
  }
}
