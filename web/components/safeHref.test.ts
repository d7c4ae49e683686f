import {describe, expect, it} from 'vitest'
import {safeHref} from './safeHref.ts'
import {otherHostSpellings, unsafeHrefs} from '../../test/support/unsafeHrefs.ts'

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
    for (const href of [...unsafeHrefs, 'ftp://x', '//evil.example']) {
      expect(safeHref(href)).toBeUndefined()
    }
  })

  it('treats every spelling a browser reads as //host like //host', () => {
    for (const href of otherHostSpellings) {
      expect(safeHref(href), JSON.stringify(href)).toBeUndefined()
      expect(new URL(href, 'https://writer.example/blog/a').host, JSON.stringify(href)).toBe(
        'evil.example',
      )
    }
  })

  it('drops javascript: however tabs, newlines and case disguise it', () => {
    for (const href of [
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'ja\r\nva\tsc\nript:alert(1)',
      '\tjavascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      '\u0000javascript:alert(1)',
      'javascript\t:alert(1)',
    ]) {
      expect(safeHref(href), JSON.stringify(href)).toBeUndefined()
    }
  })

  it('keeps relative paths that only contain a backslash later on', () => {
    expect(safeHref('/blog/a\\b')).toBe('/blog/a\\b')
  })
})
