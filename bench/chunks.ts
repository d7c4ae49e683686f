import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {brotliCompressSync, constants, gzipSync} from 'node:zlib'
import {
  chunkGraph,
  packageOf,
  studioCodeIn,
  type Manifest,
  type StudioFinding,
} from '../scripts/chunkGraph.ts'
import {kb} from './stats.ts'

export interface Chunk {
  file: string
  bytes: number
  gzip: number
  brotli: number
  /**
   * Loaded at the visitor's first interaction: the entry (the app) and what it imports
   * statically. A first page view loads no file: its only script is inline (web/boot/).
   */
  interaction: boolean
  /** Fetched later by a dynamic import(). */
  lazy: boolean
  /**
   * Loaded only when the owner turns preview on (scripts/chunkGraph.ts `previewEntry`): never on a
   * reader's visit.
   */
  previewOnly: boolean
}

export const clientDir = new URL('../dist/client', import.meta.url).pathname

/** `keys` and, transitively, what they import statically. */
function withStaticImports(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>()
  const visit = (key: string) => {
    const entry = manifest[key]
    if (!entry || files.has(entry.file)) return
    files.add(entry.file)
    for (const imported of entry.imports ?? []) visit(imported)
  }
  for (const key of keys) visit(key)
  return files
}

/** Every public JS chunk with its raw, gzip (level 9) and brotli (quality 11) sizes. */
export function publicChunks(dir = clientDir): Chunk[] {
  const graph = chunkGraph(dir)
  const {manifest} = graph
  const interaction = withStaticImports(manifest, graph.entries)
  const lazy = new Set(
    Object.values(manifest)
      .filter((e) => e.isDynamicEntry)
      .map((e) => e.file),
  )
  return graph.scripts
    .map((file) => {
      const content = readFileSync(join(dir, file))
      return {
        file,
        bytes: content.length,
        gzip: gzipSync(content, {level: 9}).length,
        brotli: brotliCompressSync(content, {params: {[constants.BROTLI_PARAM_QUALITY]: 11}})
          .length,
        interaction: interaction.has(file),
        lazy: lazy.has(file),
        previewOnly: graph.previewOnlyFiles.has(file),
      }
    })
    .sort((a, b) => b.gzip - a.gzip)
}

export interface StudioCode {
  /**
   * Studio code in a chunk a reader's page can load: every chunk but the preview-only ones (a
   * chunk in neither graph counts as a reader's). Any entry here is a failure.
   */
  reader: StudioFinding[]
  /**
   * Studio code in the preview-only chunks: expected, as visual editing draws its overlays with
   * the Studio's UI (@sanity/ui), and loaded only for the owner in preview.
   */
  previewOnly: StudioFinding[]
}

/**
 * Studio code in the client build, by who loads it: its modules (web/vite.chunkModules.ts) and
 * Studio marker strings in each chunk's text.
 */
export function studioCode(dir = clientDir): StudioCode {
  const graph = chunkGraph(dir)
  const found: StudioCode = {reader: [], previewOnly: []}
  for (const file of graph.scripts) {
    const code = studioCodeIn(dir, graph, file)
    found[graph.previewOnlyFiles.has(file) ? 'previewOnly' : 'reader'].push(...code)
  }
  return found
}

/**
 * Studio code where a reader could load it fails the check; in the preview-only chunks it is
 * expected (visual editing's overlays are drawn with @sanity/ui) and reported with their size.
 */
export function studioNotes(studio: StudioCode, chunks: Chunk[]): string[] {
  const preview = chunks.filter((c) => c.previewOnly)
  const gzip = preview.reduce((total, c) => total + c.gzip, 0)
  const sizes = preview.map((c) => `${c.file} ${kb(c.gzip)}`).join(', ')
  const packages = [...new Set(studio.previewOnly.map(({what}) => packageOf(what)))]
  return [
    studio.reader.length === 0
      ? 'Target MET: no Studio code in any chunk a reader loads (modules and marker strings checked).'
      : 'Target MISSED: STUDIO CODE IN A CHUNK A READER LOADS: ' +
        studio.reader.map(({file, what}) => `${file}: ${what}`).join('; '),
    preview.length === 0
      ? 'No preview-only chunk: the preview import (web/preview/loadPreviewEditing.ts) is not in the build.'
      : 'Preview-only chunks, loaded only when the owner turns preview on ' +
        `(web/preview/loadPreviewEditing.ts): ${kb(gzip)} gzip in all (${sizes}). ` +
        (packages.length === 0
          ? 'They hold no Studio code.'
          : `Their Studio code, expected there (visual editing draws its overlays with the Studio's UI): ${packages.join(', ')}.`),
  ]
}

/**
 * The JavaScript a page runs before any interaction, gzip -9 bytes: its inline scripts (not JSON
 * data) plus the chunks its <script src> and modulepreload links name.
 */
export function firstLoadJsGzip(html: string, chunks: Chunk[]): number {
  let total = 0
  for (const [, attrs = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/type="application\/(ld\+)?json"/.test(attrs)) continue
    const src = /\ssrc="\/([^"]+)"/.exec(attrs)?.[1]
    if (src) total += chunks.find((c) => c.file === src)?.gzip ?? 0
    else total += gzipSync(body, {level: 9}).length
  }
  for (const [, file] of html.matchAll(/<link rel="modulepreload" href="\/([^"]+)"/g)) {
    total += chunks.find((c) => c.file === file)?.gzip ?? 0
  }
  return total
}
