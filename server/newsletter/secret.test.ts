import {mkdtempSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {loadNewsletterSecret, secretFileName} from './secret.ts'

const dirs: string[] = []
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-secret-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

describe('the newsletter secret', () => {
  it('is made once at 0600 and read back the same', () => {
    const dir = dataDir()
    const key = loadNewsletterSecret(dir)
    expect(key.length).toBe(32)
    expect(statSync(join(dir, secretFileName)).mode & 0o777).toBe(0o600)
    expect(loadNewsletterSecret(dir).equals(key)).toBe(true)
    expect(readdirSync(dir)).toEqual([secretFileName])
  })

  it('a torn file is moved aside and a new key made, instead of refusing every start', () => {
    const dir = dataDir()
    writeFileSync(join(dir, secretFileName), '', {mode: 0o644})
    expect(loadNewsletterSecret(dir).length).toBe(32)
    expect(statSync(join(dir, secretFileName)).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir).some((name) => name.startsWith(`${secretFileName}.corrupt-`))).toBe(
      true,
    )
  })
})
