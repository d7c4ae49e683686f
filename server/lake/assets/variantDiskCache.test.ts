import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {VariantDiskCache} from './variantDiskCache.ts'

const variant = (fill: number) => ({bytes: Buffer.alloc(400, fill), type: 'image/webp'})

describe('the disk cache of variants', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'variant-disk-'))
  })
  afterEach(() => rmSync(dataDir, {recursive: true, force: true}))

  it('stays within its bytes, dropping the least recently used first', async () => {
    const cache = new VariantDiskCache(dataDir, 1000)
    await cache.set('a', variant(1))
    await cache.set('b', variant(2))
    expect((await cache.get('a', 'image/webp'))?.bytes[0]).toBe(1)
    await cache.set('c', variant(3))
    expect(cache.size).toBeLessThanOrEqual(1000)
    expect(await cache.get('b', 'image/webp')).toBeUndefined()
    expect((await cache.get('a', 'image/webp'))?.bytes[0]).toBe(1)
    expect((await cache.get('c', 'image/webp'))?.bytes[0]).toBe(3)
    expect(readdirSync(cache.dir)).toHaveLength(2)
  })

  it('finds its files again after a restart and removes what a crash left half-written', async () => {
    const first = new VariantDiskCache(dataDir, 1000)
    await first.set('a', variant(7))
    writeFileSync(join(first.dir, 'x.webp.123.abc.tmp'), 'half')
    const second = new VariantDiskCache(dataDir, 1000)
    expect((await second.get('a', 'image/webp'))?.bytes[0]).toBe(7)
    expect(second.size).toBe(400)
    expect(readdirSync(second.dir)).toHaveLength(1)
  })
})
