import {describe, expect, it} from 'vitest'
import {RenderCache} from './cache.ts'

describe('RenderCache', () => {
  it('keeps the most recently used entries within its bound', () => {
    const cache = new RenderCache<string>(2)
    cache.set('a', 'A', [], cache.generation)
    cache.set('b', 'B', [], cache.generation)
    expect(cache.get('a')).toBe('A')
    cache.set('c', 'C', [], cache.generation)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe('A')
    expect(cache.get('c')).toBe('C')
    expect(cache.size).toBe(2)
  })

  it('clear empties it and refuses results rendered before the change', () => {
    const cache = new RenderCache<string>()
    const before = cache.generation
    cache.set('a', 'A', [], before)
    cache.clear()
    expect(cache.get('a')).toBeUndefined()
    expect(cache.set('a', 'stale', [], before)).toBe(false)
    expect(cache.get('a')).toBeUndefined()
    cache.set('a', 'fresh', [], cache.generation)
    expect(cache.get('a')).toBe('fresh')
  })

  it('a tag drops the pages built with it, and only those; pages without tags stay', () => {
    const cache = new RenderCache<string>()
    cache.set('/blog', 'list', ['s1:post'], cache.generation)
    cache.set('/blog/a', 'post a', ['s1:post', 's1:author'], cache.generation)
    cache.set('/services', 'services', [], cache.generation)
    expect(cache.drop(['s1:post', 's1:author'])).toBe(2)
    expect(cache.get('/blog')).toBeUndefined()
    expect(cache.get('/blog/a')).toBeUndefined()
    expect(cache.get('/services')).toBe('services')
    // The index forgets dropped pages: a second drop finds nothing.
    expect(cache.drop(['s1:post'])).toBe(0)
  })

  it('refuses a render that started before a drop of one of its tags, not one of another tag', () => {
    const cache = new RenderCache<string>()
    const started = cache.generation
    cache.drop(['s1:other'])
    expect(cache.set('/services', 'ok', ['s1:mine'], started)).toBe(true)
    const again = cache.generation
    cache.drop(['s1:mine'])
    expect(cache.set('/blog', 'stale', ['s1:mine'], again)).toBe(false)
    expect(cache.get('/blog')).toBeUndefined()
    // Started after the drop: stored.
    expect(cache.set('/blog', 'fresh', ['s1:mine'], cache.generation)).toBe(true)
  })

  it('stays bounded in the tags it remembers, refusing older renders instead of forgetting', () => {
    const cache = new RenderCache<string>()
    const started = cache.generation
    for (let i = 0; i < 2_000; i++) cache.drop([`s1:t${i}`])
    // Its tag was never dropped, but the memory of drops was cut: refused, to be safe.
    expect(cache.set('/a', 'A', ['s1:never'], started)).toBe(false)
    expect(cache.set('/a', 'A', ['s1:never'], cache.generation)).toBe(true)
  })
})
