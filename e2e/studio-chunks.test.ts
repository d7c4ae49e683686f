import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {
  chunkGraph,
  previewEntry,
  scriptsIn,
  studioMarkers,
  studioSource,
} from '../scripts/chunkGraph.ts'

const clientDir = 'dist/client'
const studioDir = 'dist/studio'

describe("the public site's chunks", () => {
  // Public: every edge but the preview-only dynamic import. Preview: what that import brings
  // (empty if the import were static: then the first test below says so).
  const {manifest, modules, entries, publicGraph, previewGraph, scripts} = chunkGraph(clientDir)
  const filesOf = (graph: Set<string>) => new Set([...graph].map((key) => manifest[key].file))
  const studioModulesIn = (graph: Set<string>) =>
    [...graph].flatMap((key) => {
      const {file, src} = manifest[key]
      return [key, src ?? '', ...(modules[file] ?? [])]
        .filter((id) => studioSource.test(id))
        .map((id) => `${file}: ${id}`)
    })

  it('load preview mode only through one dynamic import, never a static one', () => {
    expect(entries.length).toBeGreaterThan(0)
    expect(manifest[previewEntry]?.isDynamicEntry, `${previewEntry} is a dynamic entry`).toBe(true)
    const importers = Object.keys(manifest).filter((key) =>
      manifest[key].dynamicImports?.includes(previewEntry),
    )
    expect(importers.length).toBeGreaterThan(0)
    for (const key of importers) expect(publicGraph.has(key), key).toBe(true)
    expect(
      Object.keys(manifest).filter((key) => manifest[key].imports?.includes(previewEntry)),
    ).toEqual([])
    // Its module is bundled into its own chunk only, not into one a public page loads.
    const publicModules = [...filesOf(publicGraph)].flatMap((file) => modules[file] ?? [])
    expect(publicModules.filter((id) => id.endsWith(previewEntry))).toEqual([])
  })

  it('reach no Studio or visual-editing module from any entry without that import', () => {
    expect(studioModulesIn(publicGraph)).toEqual([])
    // The preview graph does hold them, so the check above sees what it looks for.
    expect(studioModulesIn(previewGraph).some((id) => id.includes('@sanity/visual-editing/'))).toBe(
      true,
    )
    expect(studioModulesIn(previewGraph).some((id) => id.includes('@sanity/ui/'))).toBe(true)
    // Every emitted script is in one of the two graphs, so nothing escapes the scan.
    const known = new Set([...filesOf(publicGraph), ...filesOf(previewGraph)])
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter((file) => !known.has(file))).toEqual([])
    expect(scripts.every((file) => modules[file])).toBe(true)
  })

  it("contain none of the Studio's code (markers found in dist/studio, absent from public chunks)", () => {
    expect(existsSync(join(studioDir, 'index.html'))).toBe(true)
    const studioCode = scriptsIn(studioDir).map((file) =>
      readFileSync(join(studioDir, file), 'utf8'),
    )
    for (const marker of studioMarkers)
      expect(
        studioCode.some((code) => code.includes(marker)),
        marker,
      ).toBe(true)
    const leaks = [...filesOf(publicGraph)].flatMap((file) => {
      const code = readFileSync(join(clientDir, file), 'utf8')
      return studioMarkers
        .filter((marker) => code.includes(marker))
        .map((marker) => `${file}: ${marker}`)
    })
    expect(leaks).toEqual([])
  })
})
