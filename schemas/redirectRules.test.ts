import {describe, expect, it} from 'vitest'
import {isExternalTarget, isSitePath, redirectConflict} from './redirectRules.ts'
import {otherHostSpellings} from '../test/support/unsafeHrefs.ts'

describe('what a redirect may say', () => {
  it('takes one-slash paths of the site, never another origin', () => {
    expect(isSitePath('/blog/old')).toBe(true)
    expect(isSitePath('/blog?category=Trips')).toBe(true)
    for (const bad of [
      ...otherHostSpellings,
      '//evil.example/x',
      'https://evil.example',
      'blog',
      '',
      '/a b',
    ])
      expect(isSitePath(bad)).toBe(false)
  })

  it('takes https addresses only as external targets', () => {
    expect(isExternalTarget('https://example.com/samples')).toBe(true)
    for (const bad of ['http://example.com', 'javascript:alert(1)', '/blog', 'not a url'])
      expect(isExternalTarget(bad)).toBe(false)
  })

  it('refuses a loop and both ends of a chain', () => {
    const saved = [{_id: 'r1', from: '/a', to: '/b'}]
    expect(redirectConflict({from: '/x', to: '/x'}, [])).toMatch(/itself/)
    expect(redirectConflict({from: '/b', to: '/c'}, saved)).toMatch(/chain/)
    expect(redirectConflict({from: '/z', to: '/a'}, saved)).toMatch(/already redirects/)
    expect(redirectConflict({from: '/c', to: '/b'}, saved)).toBeUndefined()
  })
})
