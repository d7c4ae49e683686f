import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {inputsHash} from './inputs.ts'

// npm start rebuilds only when this fingerprint differs from the current build's stamp
// (scripts/build.ts --if-changed).
let root: string

function write(file: string, text: string) {
  mkdirSync(join(root, file, '..'), {recursive: true})
  writeFileSync(join(root, file), text)
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'scriptorium-inputs-'))
  write('web/routes/home.tsx', 'export const home = 1')
  write('studio/main.tsx', 'export {}')
  write('schemas/post.ts', 'export const post = {}')
  write('shared/constants.ts', 'export const apiVersion = "2025-02-19"')
  write('package-lock.json', '{"lockfileVersion": 3}')
  write('vite.config.ts', 'export default {}')
  write('server/main.ts', 'console.log(1)')
  write('web/node_modules/.vite/cache.json', '{}')
})
afterEach(() => rmSync(root, {recursive: true, force: true}))

describe('the build inputs fingerprint', () => {
  it('is the same when nothing changed', () => {
    expect(inputsHash(root, {})).toBe(inputsHash(root, {}))
  })

  it.each([
    ['a page of the site', 'web/routes/home.tsx'],
    ['the Studio', 'studio/main.tsx'],
    ['a schema', 'schemas/post.ts'],
    ['a shared constant', 'shared/constants.ts'],
    ['the lockfile', 'package-lock.json'],
    ['a Vite config', 'vite.config.ts'],
  ])('changes when %s changes', (_, file) => {
    const before = inputsHash(root, {})
    write(file, 'export const changed = true')
    expect(inputsHash(root, {})).not.toBe(before)
  })

  it('changes when a file is added, or a .env file or a SANITY_STUDIO_ variable changes', () => {
    const before = inputsHash(root, {})
    write('web/components/New.tsx', 'export {}')
    const added = inputsHash(root, {})
    expect(added).not.toBe(before)
    write('.env', 'SANITY_STUDIO_PROJECT_ID=abc')
    const withEnvFile = inputsHash(root, {})
    expect(withEnvFile).not.toBe(added)
    expect(inputsHash(root, {SANITY_STUDIO_PROJECT_ID: 'abc'})).not.toBe(withEnvFile)
  })

  it('ignores what no build reads: the server, tests, other variables, caches', () => {
    const before = inputsHash(root, {HOME: '/root'})
    write('server/main.ts', 'console.log(2)')
    write('web/routes/home.test.ts', 'it()')
    write('web/node_modules/.vite/cache.json', '{"changed": true}')
    expect(inputsHash(root, {HOME: '/elsewhere'})).toBe(before)
  })
})
