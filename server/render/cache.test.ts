import {describe, expect, it} from 'vitest'
import {RenderCache} from './cache.ts'

describe('RenderCache', () => {
  it('keeps the most recently used entries within its bound', () => {
    const cache = new RenderCache<string>(2)
    cache.set('a', 'A', cache.generation)
    cache.set('b', 'B', cache.generation)
    expect(cache.get('a')).toBe('A')
    cache.set('c', 'C', cache.generation)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe('A')
    expect(cache.get('c')).toBe('C')
    expect(cache.size).toBe(2)
  })

  it('clear empties it and refuses results rendered before the change', () => {
    const cache = new RenderCache<string>()
    const before = cache.generation
    cache.set('a', 'A', before)
    cache.clear()
    expect(cache.get('a')).toBeUndefined()
    cache.set('a', 'stale', before)
    expect(cache.get('a')).toBeUndefined()
    cache.set('a', 'fresh', cache.generation)
    expect(cache.get('a')).toBe('fresh')
  })
})
