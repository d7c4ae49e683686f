import {mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {removeStaleTemps, writeFileDurably} from './durableFile.ts'
import {tempDirs} from '../../test/support/tempDirs.ts'

const freshDir = tempDirs('scriptorium-durable-')

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)

describe('writeFileDurably', () => {
  it('replaces the file whole, with its mode, and leaves no temp file', async () => {
    const dir = freshDir()
    const file = join(dir, 'side.json')
    await writeFileDurably(file, 'one')
    await Promise.all(['two', 'three', 'four'].map((text) => writeFileDurably(file, text)))
    expect(['two', 'three', 'four']).toContain(readFileSync(file, 'utf8'))
    expect(mode(file)).toBe('600')
    expect(readdirSync(dir)).toEqual(['side.json'])
  })

  it('on failure leaves the old file as it was and no temp file', async () => {
    const dir = freshDir()
    const file = join(dir, 'side.json')
    await writeFileDurably(file, 'kept')
    mkdirSync(join(dir, 'blocker'))
    // Renaming a file over a directory fails after the temp file was written and synced.
    await expect(writeFileDurably(join(dir, 'blocker'), 'new')).rejects.toThrow()
    expect(readFileSync(file, 'utf8')).toBe('kept')
    expect(readdirSync(dir).sort()).toEqual(['blocker', 'side.json'])
  })

  it('temp files a crash left behind are removed at start', () => {
    const dir = freshDir()
    writeFileSync(join(dir, 'side.json.123.0123456789ab.tmp'), 'torn')
    writeFileSync(join(dir, 'side.json'), 'whole')
    removeStaleTemps(dir, 'side.json')
    expect(readdirSync(dir)).toEqual(['side.json'])
  })
})
