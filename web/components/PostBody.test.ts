import {describe, expect, it} from 'vitest'
import {headingTagFor, type HeadingStyle} from './PostBody.tsx'

const body = (...styles: string[]) =>
  styles.map((style, i) => ({_type: 'block', _key: `k${i}`, style, children: []}))
const all: HeadingStyle[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']

describe('body headings below the post title', () => {
  it('every style used: one level down, h6 stays h6', () => {
    const tagFor = headingTagFor(body('normal', ...all))
    expect(all.map(tagFor)).toEqual(['h2', 'h3', 'h4', 'h5', 'h6', 'h6'])
  })

  it('a body that starts at h3 starts at h2, without gaps', () => {
    const tagFor = headingTagFor(body('normal', 'h3', 'normal', 'h5', 'h3'))
    expect([tagFor('h3'), tagFor('h5')]).toEqual(['h2', 'h3'])
  })
})
