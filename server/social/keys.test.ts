import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {exportJwk} from '@fedify/fedify'
import {afterEach, describe, expect, it} from 'vitest'
import {mountSmallDisk} from '../../test/support/smallDisk.ts'
import {keysFileName, loadActorKeys} from './keys.ts'

const dirs: string[] = []
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-keys-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

const publicJwks = async (pairs: CryptoKeyPair[]) =>
  Promise.all(pairs.map((pair) => exportJwk(pair.publicKey)))

describe('the actor keys', () => {
  it('are made once, kept at 0600, and two starts racing agree on them', async () => {
    const dir = dataDir()
    const [a, b] = await Promise.all([loadActorKeys(dir), loadActorKeys(dir)])
    expect(await publicJwks(a)).toEqual(await publicJwks(b))
    expect(statSync(join(dir, keysFileName)).mode & 0o777).toBe(0o600)
    expect(await publicJwks(await loadActorKeys(dir))).toEqual(await publicJwks(a))
    expect(readdirSync(dir)).toEqual([keysFileName])
  })

  it('a torn file is moved aside, not deleted, and new keys are made', async () => {
    const dir = dataDir()
    writeFileSync(join(dir, keysFileName), '', {mode: 0o600})
    const keys = await loadActorKeys(dir)
    expect(keys).toHaveLength(2)
    const names = readdirSync(dir)
    expect(names).toContain(keysFileName)
    expect(names.find((name) => name.startsWith(`${keysFileName}.corrupt-`))).toBeDefined()
    expect(JSON.parse(readFileSync(join(dir, keysFileName), 'utf8'))).toHaveLength(2)
  })

  it('a full disk leaves no file, and the next start makes it', async () => {
    const disk = mountSmallDisk(64 * 1024)
    if (!disk) throw new Error('the tests run as root, where mount is allowed')
    try {
      disk.fill()
      await expect(loadActorKeys(disk.dir)).rejects.toThrow(/ENOSPC/)
      expect(readdirSync(disk.dir).filter((name) => name.startsWith(keysFileName))).toEqual([])
      disk.free()
      expect(await loadActorKeys(disk.dir)).toHaveLength(2)
    } finally {
      disk.remove()
    }
  })
})
