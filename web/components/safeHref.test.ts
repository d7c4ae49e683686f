import {describe, expect, it} from 'vitest'
import {safeHref} from './safeHref.ts'

describe('safeHref', () => {
  it('keeps http(s), mailto and relative links', () => {
    for (const href of [
      'https://example.com/a?b#c',
      'http://x.y',
      'MAILTO:me@example.com',
      '/blog/hello',
      'notes.html',
      '#top',
      '?q=1',
      '../up',
    ]) {
      expect(safeHref(href)).toBe(href)
    }
  })

  it('drops every other scheme, protocol-relative links and non-strings', () => {
    for (const href of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'ftp://x',
      '//evil.example',
      '',
      undefined,
      42,
    ]) {
      expect(safeHref(href)).toBeUndefined()
    }
  })
})
