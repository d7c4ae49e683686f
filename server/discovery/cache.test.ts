import {describe, expect, it} from 'vitest'
import {GeneratedCache} from './cache.ts'

function counter(prefix = 'v') {
  let calls = 0
  return {
    build: async () => `${prefix}${++calls}`,
    get calls() {
      return calls
    },
  }
}

describe('GeneratedCache', () => {
  it('builds once and serves the stored value until invalidated', async () => {
    const cache = new GeneratedCache<string>()
    const source = counter()
    expect(await cache.get('a', source.build)).toBe('v1')
    expect(await cache.get('a', source.build)).toBe('v1')
    expect(source.calls).toBe(1)
    cache.invalidate()
    expect(await cache.get('a', source.build)).toBe('v2')
  })

  it('shares one build between concurrent callers', async () => {
    const cache = new GeneratedCache<string>()
    const source = counter()
    const values = await Promise.all([cache.get('a', source.build), cache.get('a', source.build)])
    expect(values).toEqual(['v1', 'v1'])
    expect(source.calls).toBe(1)
  })

  it('does not keep a build that was running when content changed', async () => {
    const cache = new GeneratedCache<string>()
    let release: (value: string) => void = () => {}
    const stale = cache.get('a', () => new Promise<string>((resolve) => (release = resolve)))
    cache.invalidate()
    release('before the commit')
    expect(await stale).toBe('before the commit')
    expect(await cache.get('a', async () => 'after the commit')).toBe('after the commit')
  })

  it('forgets a failed build so the next request retries', async () => {
    const cache = new GeneratedCache<string>()
    await expect(
      cache.get('a', async () => Promise.reject(new Error('lake down'))),
    ).rejects.toThrow('lake down')
    expect(await cache.get('a', async () => 'recovered')).toBe('recovered')
  })

  it('expires entries after the TTL when one is set (hosted mode)', async () => {
    let now = 0
    const cache = new GeneratedCache<string>({ttlMs: 60_000, now: () => now})
    const source = counter()
    await cache.get('a', source.build)
    now = 59_999
    expect(await cache.get('a', source.build)).toBe('v1')
    now = 60_000
    expect(await cache.get('a', source.build)).toBe('v2')
  })

  it('keeps keys apart', async () => {
    const cache = new GeneratedCache<string>()
    expect(await cache.get('a', counter('a').build)).toBe('a1')
    expect(await cache.get('b', counter('b').build)).toBe('b1')
  })
})
