import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

const clientDir = 'dist/client'
const studioDir = 'dist/studio'

/** Sources that belong to the Studio only: they must never reach a public page. */
const studioSource =
  /(^|\/)(node_modules\/(sanity|@sanity\/(vision|ui|structure|presentation))\/|studio\/|sanity\.config\.ts$)/

/** Strings that only the Studio's code contains (checked to be present in dist/studio below). */
const studioMarkers = [
  'structureTool',
  'SanityVision',
  'studio-layout',
  'WorkspaceLoader',
  'data-ui',
  'x-sanity-app',
]

function jsFiles(dir: string): string[] {
  return readdirSync(join(dir, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => join(dir, 'assets', file))
}

describe("the public site's chunks", () => {
  const manifest = JSON.parse(
    readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>

  it('reach no Studio module from any entry (manifest chunk graph)', () => {
    const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry)
    expect(entries.length).toBeGreaterThan(0)
    const seen = new Set<string>()
    const queue = [...entries]
    while (queue.length > 0) {
      const key = queue.pop() as string
      if (seen.has(key)) continue
      seen.add(key)
      const chunk = manifest[key]
      expect(chunk, `manifest lacks ${key}`).toBeDefined()
      queue.push(...(chunk.imports ?? []), ...(chunk.dynamicImports ?? []))
    }
    const studioChunks = [...seen].filter(
      (key) => studioSource.test(key) || studioSource.test(manifest[key].src ?? ''),
    )
    expect(studioChunks).toEqual([])
    // Every emitted public script is in the graph, so the scan below covers what pages can load.
    const reachable = new Set([...seen].map((key) => join(clientDir, manifest[key].file)))
    expect(jsFiles(clientDir).filter((file) => !reachable.has(file))).toEqual([])
  })

  it("contain none of the Studio's code (markers found in dist/studio, absent from dist/client)", () => {
    expect(existsSync(join(studioDir, 'index.html'))).toBe(true)
    const studioCode = jsFiles(studioDir).map((file) => readFileSync(file, 'utf8'))
    for (const marker of studioMarkers)
      expect(
        studioCode.some((code) => code.includes(marker)),
        marker,
      ).toBe(true)
    const leaks = jsFiles(clientDir).flatMap((file) => {
      const code = readFileSync(file, 'utf8')
      return studioMarkers
        .filter((marker) => code.includes(marker))
        .map((marker) => `${file}: ${marker}`)
    })
    expect(leaks).toEqual([])
  })
})
