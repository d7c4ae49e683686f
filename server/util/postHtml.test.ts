import {describe, expect, it} from 'vitest'
import {followableHref, postBodyHtml} from './postHtml.ts'
import {block} from '../discovery/testing.ts'
import {unsafeHrefs} from '../../test/support/unsafeHrefs.ts'

const postUrl = 'https://writer.example/blog/a-post'

describe('followableHref', () => {
  it('keeps http(s) and mailto links and makes relative ones absolute', () => {
    expect(followableHref('https://example.com/x', postUrl)).toBe('https://example.com/x')
    expect(followableHref('HTTP://Example.com', postUrl)).toBe('http://example.com/')
    expect(followableHref('mailto:me@example.com', postUrl)).toBe('mailto:me@example.com')
    expect(followableHref('/blog/other', postUrl)).toBe('https://writer.example/blog/other')
    expect(followableHref('other', postUrl)).toBe('https://writer.example/blog/other')
    expect(followableHref('#notes', postUrl)).toBe('https://writer.example/blog/a-post#notes')
  })

  it('drops every other scheme, however it is disguised', () => {
    for (const href of [...unsafeHrefs, '   ']) {
      expect(followableHref(href, postUrl), String(href)).toBeUndefined()
    }
  })

  it('reads a backslash as a slash, as a browser does: /\\x is //x', () => {
    const same = followableHref('//elsewhere.example/p', postUrl)
    expect(same).toBe('https://elsewhere.example/p')
    for (const href of [
      '/\\elsewhere.example/p',
      '\\\\elsewhere.example/p',
      '\\/elsewhere.example/p',
    ])
      expect(followableHref(href, postUrl), href).toBe(same)
  })
})

describe('postBodyHtml', () => {
  it('renders every block style, list and mark of the schema', () => {
    const body = [
      ...(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'normal'] as const).map((style) =>
        block(style, [[style]], {style}),
      ),
      block('b1', [['one']], {listItem: 'bullet'}),
      block('n1', [['first']], {listItem: 'number'}),
      block(
        'm',
        [
          ['bold', ['strong']],
          ['it', ['em']],
          ['x()', ['code']],
          ['under', ['underline']],
          ['gone', ['strike-through']],
          ['site', ['l1']],
        ],
        {links: {l1: '/about'}},
      ),
    ]
    const html = postBodyHtml(body, postUrl)
    for (const tag of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
      expect(html).toContain(`<${tag}>${tag}</${tag}>`)
    expect(html).toContain('<blockquote>blockquote</blockquote>')
    expect(html).toContain('<p>normal</p>')
    expect(html).toContain('<ul><li>one</li></ul>')
    expect(html).toContain('<ol><li>first</li></ol>')
    expect(html).toContain(
      '<strong>bold</strong><em>it</em><code>x()</code><u>under</u><del>gone</del><a href="https://writer.example/about">site</a>',
    )
  })

  it('renders an unsafe link as its text and escapes the content', () => {
    const body = [
      block('x', [['<script>alert(1)</script>', ['bad']]], {links: {bad: 'javascript:alert(1)'}}),
    ]
    expect(postBodyHtml(body, postUrl)).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')
  })

  it('renders nothing for an empty body or a type outside the schema', () => {
    expect(postBodyHtml(null, postUrl)).toBe('')
    expect(postBodyHtml([], postUrl)).toBe('')
    expect(postBodyHtml([{_type: 'image', _key: 'i'}], postUrl)).toBe('')
  })
})
