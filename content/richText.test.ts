import {describe, expect, it} from 'vitest'
import {bullet, h3, p, toBlock} from './richText.ts'

const parts = (source: ReturnType<typeof p>) => {
  const block = toBlock(source, 'seed')
  const names = new Map(block.markDefs.map((def) => [def._key, `link:${def.href}`]))
  return block.children.map((span) => [
    span.text,
    span.marks.map((mark) => names.get(mark) ?? mark),
  ])
}

describe('the inline markup of content/posts', () => {
  it('turns plain text into one unmarked span of a normal block', () => {
    const block = toBlock(p('Hello from Srinagar.'), 'a')
    expect(block).toMatchObject({_type: 'block', style: 'normal', markDefs: []})
    expect(block.listItem).toBeUndefined()
    expect(block.children).toEqual([
      {
        _type: 'span',
        _key: expect.stringMatching(/^[0-9a-f]{12}$/),
        text: 'Hello from Srinagar.',
        marks: [],
      },
    ])
  })

  it('reads every decorator, nested marks included', () => {
    expect(parts(p('a **b *c*** `d` __e__ ~~f~~'))).toEqual([
      ['a ', []],
      ['b ', ['strong']],
      ['c', ['strong', 'em']],
      [' ', []],
      ['d', ['code']],
      [' ', []],
      ['e', ['underline']],
      [' ', []],
      ['f', ['strike-through']],
    ])
  })

  it('makes links annotations, with marks inside the link text', () => {
    expect(
      parts(p('see [the **lake**](https://example.com/dal) or [mail](mailto:a@example.com).')),
    ).toEqual([
      ['see ', []],
      ['the ', ['link:https://example.com/dal']],
      ['lake', ['strong', 'link:https://example.com/dal']],
      [' or ', []],
      ['mail', ['link:mailto:a@example.com']],
      ['.', []],
    ])
  })

  it('keeps markup characters literal inside code and after a backslash', () => {
    expect(parts(p('`a*b` \\*c\\*'))).toEqual([
      ['a*b', ['code']],
      [' *c*', []],
    ])
  })

  it('sets list items to level 1 and keeps heading styles', () => {
    expect(toBlock(bullet('x'), 'b')).toMatchObject({style: 'normal', listItem: 'bullet', level: 1})
    expect(toBlock(h3('x'), 'c')).toMatchObject({style: 'h3'})
  })

  it('gives the same keys for the same seed, so rebuilding the dataset changes nothing', () => {
    expect(toBlock(p('x'), 'post/0')).toEqual(toBlock(p('x'), 'post/0'))
    expect(toBlock(p('x'), 'post/0')._key).not.toBe(toBlock(p('x'), 'post/1')._key)
  })

  it('refuses unclosed marks and links, naming the text', () => {
    expect(() => toBlock(p('a **b'), 'd')).toThrow(/Unclosed mark strong in "a \*\*b"/)
    expect(() => toBlock(p('a [b'), 'e')).toThrow(/Unclosed link/)
  })
})
