import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {assetPath, ClientAssets} from './assets.ts'

describe('assetPath', () => {
  it.each([
    ['/share.png', 'share.png'],
    ['//share.png', 'share.png'],
    ['/%73hare.png', 'share.png'],
    ['/assets//app-1.js', 'assets/app-1.js'],
  ])('%s names %s', (path, file) => expect(assetPath(path)).toBe(file))

  it.each([
    ['a dot directory', '/.vite/manifest.json'],
    ['a dot directory spelled %2E', '/%2Evite/manifest.json'],
    ['a dot directory spelled %2e', '/%2evite/manifest.json'],
    ['a parent segment', '/assets/../share.png'],
    ['an encoded parent segment', '/assets/%2E%2E/%2E%2E/etc/passwd.txt'],
    ['an encoded slash and parent', '/assets%2F..%2F..%2Fsecret.txt'],
    ['a malformed escape', '/%E0%A4%A.js'],
    ['a bare %', '/%.png'],
    ['a NUL byte', '/share.png%00.png'],
    ['a backslash', '/assets\\..\\share.png'],
    ['a directory', '/assets/'],
    ['an unknown type', '/server.ts'],
  ])('refuses %s (%s)', (_, path) => expect(assetPath(path)).toBeUndefined())
})

describe('ClientAssets', () => {
  const root = mkdtempSync(join(tmpdir(), 'client-assets-'))
  const dist = join(root, 'client')
  mkdirSync(join(dist, 'assets'), {recursive: true})
  mkdirSync(join(dist, '.vite'))
  writeFileSync(join(dist, 'share.png'), 'png')
  writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)')
  writeFileSync(join(dist, '.vite', 'manifest.json'), '{}')
  writeFileSync(join(root, 'secret.txt'), 'no')
  afterAll(() => rmSync(root, {recursive: true, force: true}))

  it('keys its memory on the normalized file: spellings of one file are one entry', async () => {
    const assets = new ClientAssets(dist)
    for (const path of ['/share.png', '//share.png', '/%73hare.png', '///%73har%65.png']) {
      const res = await assets.respond(path, undefined)
      expect(res?.status, path).toBe(200)
      expect(await res?.text()).toBe('png')
    }
    expect(assets.size).toBe(1)
  })

  it('serves no dotfile, nothing outside its directory, and forgets misses', async () => {
    const assets = new ClientAssets(dist)
    for (const path of [
      '/.vite/manifest.json',
      '/%2Evite/manifest.json',
      '/..%2Fsecret.txt',
      '/%2E%2E/secret.txt',
      '/missing-1.png',
      '/missing-2.png',
    ]) {
      expect(await assets.respond(path, undefined), path).toBeUndefined()
    }
    expect(assets.size).toBe(0)
  })
})
