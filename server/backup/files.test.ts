import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {sideFiles} from './files.ts'

describe('the files a backup carries besides the database', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'side-files-'))
  })
  afterEach(() => rmSync(dataDir, {recursive: true, force: true}))

  it('lists the stored images, never the derived variants in cache/images', () => {
    const image = `${'a'.repeat(40)}-80x80.png`
    mkdirSync(join(dataDir, 'assets', 'images'), {recursive: true})
    mkdirSync(join(dataDir, 'cache', 'images'), {recursive: true})
    writeFileSync(join(dataDir, 'assets', 'images', image), 'png')
    writeFileSync(join(dataDir, 'cache', 'images', `${'b'.repeat(64)}.webp`), 'webp')
    expect(sideFiles(dataDir).map((file) => file.path)).toEqual([`assets/images/${image}`])
  })
})
