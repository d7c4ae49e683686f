import {readdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {loadNewsletterSecret, secretFileName} from './secret.ts'
import {tempDirs} from '../../test/support/tempDirs.ts'

const dataDir = tempDirs('scriptorium-secret-')

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
