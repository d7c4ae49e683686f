import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

/**
 * The lake is the lowest layer (docs/architecture.md, "Layers"): it imports only itself, the
 * facts in shared/, and a few leaf HTTP utilities that import nothing else of ours. Its
 * configuration and hooks come from the wiring above (server/studio/feature.ts, server/app.ts),
 * never the other way round. Tests and test support (testing/) may start the whole server.
 */
const root = resolve(import.meta.dirname, '../..')
const lakeDir = 'server/lake/'

/** Files outside the lake that it may import: leaf utilities with no view of the server. */
const allowedOutside = new Set([
  'server/http/body.ts',
  'server/http/clientAddress.ts',
  'server/http/log.ts',
  'server/http/publicOrigin.ts',
  'server/http/cachedBody.ts',
  'server/http/oneTimeTokens.ts',
  'server/http/httpError.ts',
  'server/http/errorResponse.ts',
  'server/compress.ts',
  'server/html.ts',
])

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), {withFileTypes: true}).flatMap((entry) => {
    const path = `${dir}${entry.name}`
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(`${path}/`)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/**
 * Repository paths of the relative code modules a file imports (static, dynamic, re-exports,
 * workers). Data files are not layers: the seed's default content/seed.ndjson is read, not imported.
 */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const specifiers = [
    ...text.matchAll(/\bfrom\s+'(\.[^']+)'/g),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
    ...text.matchAll(/\bnew URL\(\s*'(\.[^']+)'\s*,\s*import\.meta\.url/g),
  ]
    .map((match) => match[1])
    .filter((specifier) => /\.tsx?$/.test(specifier))
  return specifiers.map((specifier) => relative(root, resolve(root, dirname(file), specifier)))
}

const allowed = (path: string) =>
  path.startsWith(lakeDir) ||
  path.startsWith('shared/') ||
  path.startsWith('server/util/') ||
  allowedOutside.has(path)

describe('the lake depends on nothing above it', () => {
  it('lake files import only the lake, shared/ and the leaf HTTP utilities', () => {
    const files = sourceFiles(lakeDir)
    expect(files.length).toBeGreaterThan(50)
    const violations = files.flatMap((file) =>
      relativeImports(file)
        .filter((path) => !allowed(path))
        .map((path) => `${file} imports ${path}`),
    )
    expect(violations).toEqual([])
  })

  it('the allowed utilities and shared/ import nothing of ours outside that set', () => {
    const outside = [...allowedOutside, ...sourceFiles('shared/')].filter((file) => {
      try {
        readFileSync(join(root, file))
        return true
      } catch {
        return false
      }
    })
    const violations = outside.flatMap((file) =>
      relativeImports(file)
        .filter((path) => path.startsWith(lakeDir) || !allowed(path))
        .map((path) => `${file} imports ${path}`),
    )
    expect(violations).toEqual([])
  })
})
