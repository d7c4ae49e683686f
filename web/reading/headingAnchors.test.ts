import {describe, expect, it} from 'vitest'
import {anchorSlug, headingAnchors} from './headingAnchors.ts'

const heading = (key: string, text: string, style = 'h2') => ({
  _type: 'block',
  _key: key,
  style,
  children: [{text}],
})

describe('heading anchors', () => {
  it('slugs text: lower case, accents dropped, punctuation collapsed', () => {
    expect(anchorSlug('Why I Edit — 2nd Draft!')).toBe('why-i-edit-2nd-draft')
    expect(anchorSlug('Srinagar’s Dal Lake')).toBe('srinagar-s-dal-lake')
    expect(anchorSlug('Café Über')).toBe('cafe-uber')
    expect(anchorSlug('¿?')).toBe('section')
  })

  it('gives repeats and reserved words a suffix, skips paragraphs and empty headings', () => {
    const anchors = headingAnchors([
      heading('a', 'Notes'),
      {_type: 'block', _key: 'p', style: 'normal', children: [{text: 'Notes'}]},
      heading('b', 'Notes', 'h3'),
      heading('c', '  '),
      heading('d', 'Contents'),
      heading('e', 'Notes'),
    ])
    expect(anchors.map((a) => [a.key, a.id, a.style])).toEqual([
      ['a', 'notes', 'h2'],
      ['b', 'notes-2', 'h3'],
      ['d', 'contents-2', 'h2'],
      ['e', 'notes-3', 'h2'],
    ])
  })

  it('is the same for the same body (stable across renders)', () => {
    const body = [heading('a', 'One'), heading('b', 'Two')]
    expect(headingAnchors(body)).toEqual(headingAnchors(structuredClone(body)))
  })
})
