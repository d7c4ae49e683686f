import {describe, expect, it} from 'vitest'
import {pageAddress} from './pageAddress.ts'

const address = (path: string) => {
  const url = pageAddress(new URL(path, 'http://site.test'))
  return `${url.pathname}${url.search}`
}

describe('the render-cache key of /search', () => {
  it('keeps the query as the page runs it, and the count past the first page', () => {
    expect(address('/search?q=kestrel&utm=x')).toBe('/search?q=kestrel')
    expect(address('/search?q=%20kestrel%00%20lake&count=13')).toBe(
      '/search?q=kestrel+lake&count=12',
    )
    expect(address('/search?utm=x')).toBe('/search')
  })
  it('cuts a 10 kB query to its bound, so it adds one small key', () => {
    expect(address(`/search?q=${'x'.repeat(10_000)}`).length).toBeLessThan(230)
  })
})
