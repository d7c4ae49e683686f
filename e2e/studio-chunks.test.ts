import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

const clientDir = 'dist/client'
const studioDir = 'dist/studio'

/**
 * The one preview-only dynamic import (web/preview/loadPreviewEditing.ts): what only preview mode loads.
 * A public page can reach every other chunk, through static and dynamic imports alike.
 */
const previewEntry = 'web/preview/PreviewEditing.tsx'

/**
 * Modules that must never reach a public page: the Studio's (sanity, its tools and UI, our
 * studio/ and sanity.config.ts) and visual editing's (the overlays, their messaging).
 */
const studioSource =
  /(^|\/)(node_modules\/(sanity|@sanity\/(vision|ui|structure|presentation|presentation-comlink|comlink|visual-editing|visual-editing-csm))\/|studio\/|sanity\.config\.ts$)/

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

/** Manifest keys reachable from `starts`, following the edges `follow` allows. */
function reach(
  manifest: Record<string, ManifestChunk>,
  starts: string[],
  follow: (to: string, dynamic: boolean) => boolean = () => true,
): Set<string> {
  const seen = new Set<string>()
  const queue = [...starts]
  while (queue.length > 0) {
    const key = queue.pop() as string
    if (seen.has(key)) continue
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) throw new Error(`the manifest lacks ${key}`)
    queue.push(
      ...(chunk.imports ?? []).filter((to) => follow(to, false)),
      ...(chunk.dynamicImports ?? []).filter((to) => follow(to, true)),
    )
  }
  return seen
}

describe("the public site's chunks", () => {
  const manifest = JSON.parse(
    readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>
  // Each emitted file's modules (web/vite.chunkModules.ts): the manifest does not list them.
  const modules = JSON.parse(
    readFileSync(join(clientDir, '.vite/chunk-modules.json'), 'utf8'),
  ) as Record<string, string[]>
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry)
  // Public: every edge but the preview-only dynamic import. Preview: what that import brings.
  const publicGraph = reach(manifest, entries, (to, dynamic) => !(dynamic && to === previewEntry))
  // Empty if the import were static (then the first test below says so).
  const previewGraph =
    previewEntry in manifest ? reach(manifest, [previewEntry]) : new Set<string>()
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
    expect(jsFiles(clientDir).filter((file) => !known.has(relative(clientDir, file)))).toEqual([])
    expect(jsFiles(clientDir).every((file) => modules[relative(clientDir, file)])).toBe(true)
  })

  it("contain none of the Studio's code (markers found in dist/studio, absent from public chunks)", () => {
    expect(existsSync(join(studioDir, 'index.html'))).toBe(true)
    const studioCode = jsFiles(studioDir).map((file) => readFileSync(file, 'utf8'))
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
