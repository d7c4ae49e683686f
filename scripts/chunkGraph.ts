import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'

/** A chunk as Vite's manifest (dist/client/.vite/manifest.json) names it. */
export interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

export type Manifest = Record<string, ManifestChunk>

/**
 * The one preview-only dynamic import (web/preview/loadPreviewEditing.ts): what only preview mode
 * loads. A reader's page can reach every other chunk, through static and dynamic imports alike.
 */
export const previewEntry = 'web/preview/PreviewEditing.tsx'

/**
 * Modules that must never reach a chunk a reader loads: the Studio's (sanity, its tools and UI,
 * our studio/ and sanity.config.ts) and visual editing's (the overlays, their messaging).
 */
export const studioSource =
  /(^|\/)(node_modules\/(sanity|@sanity\/(vision|ui|structure|desk|presentation|presentation-comlink|comlink|visual-editing|visual-editing-csm))\/|studio\/|sanity\.config\.ts$)/

/**
 * Strings that survive minification in the Studio's code (e2e/studio-chunks.test.ts checks each
 * is present in dist/studio, so their absence elsewhere means something).
 */
export const studioMarkers = [
  'structureTool',
  'SanityVision',
  'studio-layout',
  'WorkspaceLoader',
  'data-ui',
  'x-sanity-app',
  '@sanity/ui',
]

/** The client build's chunk graph, split by who loads each file. */
export interface ChunkGraph {
  manifest: Manifest
  /** Each emitted file's modules (web/vite.chunkModules.ts): the manifest does not list them. */
  modules: Record<string, string[]>
  entries: string[]
  /** Manifest keys a reader's page can reach: every edge but the preview-only import. */
  publicGraph: Set<string>
  /** Manifest keys the preview-only import brings (empty if the import is missing). */
  previewGraph: Set<string>
  /** Files a reader's page can load. */
  publicFiles: Set<string>
  /** Files only preview mode loads: in the preview graph and not in the public one. */
  previewOnlyFiles: Set<string>
  /** Every emitted script, relative to the client dir (`assets/…js`). */
  scripts: string[]
}

/** Manifest keys reachable from `starts`, following the edges `follow` allows. */
export function reach(
  manifest: Manifest,
  starts: string[],
  follow: (to: string, dynamic: boolean) => boolean = () => true,
): Set<string> {
  const seen = new Set<string>()
  const queue = [...starts]
  for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
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

function readJson<T>(file: string): T {
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build`)
  // The build's own files, written by Vite and web/vite.chunkModules.ts in these shapes.
  const parsed: T = JSON.parse(readFileSync(file, 'utf8'))
  return parsed
}

/** Every emitted script below `dir`, relative to it (Vite's own .vite/ folder left out). */
export function scriptsIn(dir: string): string[] {
  return readdirSync(dir, {recursive: true, encoding: 'utf8'})
    .filter((name) => name.endsWith('.js') && !name.startsWith('.vite'))
    .map((name) => relative(dir, join(dir, name)))
    .sort()
}

/** Reads the graph of the client build in `dir` (dist/client). */
export function chunkGraph(dir: string): ChunkGraph {
  const manifest = readJson<Manifest>(join(dir, '.vite', 'manifest.json'))
  const modules = readJson<Record<string, string[]>>(join(dir, '.vite', 'chunk-modules.json'))
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry)
  const publicGraph = reach(manifest, entries, (to, dynamic) => !(dynamic && to === previewEntry))
  const previewGraph =
    previewEntry in manifest ? reach(manifest, [previewEntry]) : new Set<string>()
  const filesOf = (graph: Set<string>) =>
    new Set([...graph].map((key) => manifest[key]?.file ?? key))
  const publicFiles = filesOf(publicGraph)
  const previewOnlyFiles = new Set([...filesOf(previewGraph)].filter((f) => !publicFiles.has(f)))
  return {
    manifest,
    modules,
    entries,
    publicGraph,
    previewGraph,
    publicFiles,
    previewOnlyFiles,
    scripts: scriptsIn(dir),
  }
}

/** A piece of Studio code in a chunk: a module bundled into it, or a marker string in its text. */
export interface StudioFinding {
  file: string
  /** The module's path, or `"marker"` for a marker string. */
  what: string
}

/**
 * The Studio code in `file` (relative to `dir`): its Studio modules by the chunk-modules list,
 * and Studio marker strings in its text (minified code the module list may not name).
 */
export function studioCodeIn(dir: string, graph: ChunkGraph, file: string): StudioFinding[] {
  const found = (graph.modules[file] ?? [])
    .filter((id) => studioSource.test(id))
    .map((what) => ({file, what}))
  const text = readFileSync(join(dir, file), 'utf8')
  for (const marker of studioMarkers)
    if (text.includes(marker)) found.push({file, what: `"${marker}"`})
  return found
}

/** The package a module path belongs to (`@sanity/ui`), or the path itself outside node_modules. */
export function packageOf(what: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(what)
  return match?.[1] ?? what
}
