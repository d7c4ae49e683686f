import {describe, expect, it} from 'vitest'
import {safeNext} from './redirect.ts'

const site = 'https://writer.example'
const request = 'http://127.0.0.1:3000/api/contact'

describe('safeNext', () => {
  it('follows _next on the public site or on the origin the request came in on', () => {
    expect(safeNext('https://writer.example/contact', site, request)).toBe(
      'https://writer.example/contact',
    )
    expect(safeNext('http://127.0.0.1:3000/contact?sent=1', site, request)).toBe(
      'http://127.0.0.1:3000/contact?sent=1',
    )
    expect(safeNext('/blog/on-editing', site, request)).toBe(
      'http://127.0.0.1:3000/blog/on-editing',
    )
  })

  it('sends everything else to /contact: other sites, other ports, tricks, nothing', () => {
    for (const next of [
      'https://evil.example/contact',
      '//evil.example/contact',
      '/\\evil.example',
      'http://writer.example/contact', // another scheme is another origin
      'https://writer.example:8443/',
      'javascript:alert(1)',
      'data:text/html,hi',
      'http://[::1',
      undefined,
      '',
    ]) {
      expect(safeNext(next, site, request), String(next)).toBe('/contact')
    }
  })
})
