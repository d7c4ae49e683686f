import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {brotliCompressSync, constants, gzipSync} from 'node:zlib'

export interface Chunk {
  file: string
  bytes: number
  gzip: number
  brotli: number
  /** Loaded on every first page view: the entry and what it imports statically. */
  firstLoad: boolean
  /** Fetched later by a dynamic import(). */
  lazy: boolean
}

interface ManifestEntry {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}

export const clientDir = new URL('../dist/client', import.meta.url).pathname

export function readManifest(dir = clientDir): Record<string, ManifestEntry> {
  const file = join(dir, '.vite', 'manifest.json')
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build`)
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestEntry>
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, {recursive: true, encoding: 'utf8'})
    .filter((name) => name.endsWith('.js') && !name.startsWith('.vite'))
    .map((name) => join(dir, name))
}

/** The files a first page view loads: every entry and, transitively, what it imports statically. */
function firstLoadFiles(manifest: Record<string, ManifestEntry>): Set<string> {
  const files = new Set<string>()
  const visit = (key: string) => {
    const entry = manifest[key]
    if (!entry || files.has(entry.file)) return
    files.add(entry.file)
    for (const imported of entry.imports ?? []) visit(imported)
  }
  for (const [key, entry] of Object.entries(manifest)) if (entry.isEntry) visit(key)
  return files
}

/** Every public JS chunk with its raw, gzip (level 9) and brotli (quality 11) sizes. */
export function publicChunks(dir = clientDir): Chunk[] {
  const manifest = readManifest(dir)
  const first = firstLoadFiles(manifest)
  const lazy = new Set(Object.values(manifest).filter((e) => e.isDynamicEntry).map((e) => e.file))
  return jsFiles(dir)
    .map((path) => {
      const content = readFileSync(path)
      const file = relative(dir, path)
      return {
        file,
        bytes: content.length,
        gzip: gzipSync(content, {level: 9}).length,
        brotli: brotliCompressSync(content, {params: {[constants.BROTLI_PARAM_QUALITY]: 11}}).length,
        firstLoad: first.has(file),
        lazy: lazy.has(file),
      }
    })
    .sort((a, b) => b.gzip - a.gzip)
}

/** Module paths that belong to the Studio; @sanity/client and @portabletext are the site's own. */
const studioModule = /(^|\/)(studio\/|sanity\.config|node_modules\/(sanity|@sanity\/(ui|vision|structure|desk|icons|mutator|types|schema|util))\/)/
/** Strings that survive minification in Studio code (checked absent from the site build by hand). */
const studioMarkers = ['data-ui', 'Sanity Studio', 'sanity/structure', 'structureTool', '@sanity/ui', '@sanity/vision']

/**
 * Studio code in the public bundle: modules named in the manifest (entries, imports, dynamic
 * imports) and, since the manifest names only chunk roots, Studio marker strings in any chunk.
 */
export function studioLeaks(dir = clientDir): string[] {
  const leaks: string[] = []
  for (const [key, entry] of Object.entries(readManifest(dir))) {
    for (const name of [key, entry.src ?? '', ...(entry.imports ?? []), ...(entry.dynamicImports ?? [])]) {
      if (studioModule.test(name)) leaks.push(`manifest: ${entry.file} ← ${name}`)
    }
  }
  for (const path of jsFiles(dir)) {
    const text = readFileSync(path, 'utf8')
    for (const marker of studioMarkers) if (text.includes(marker)) leaks.push(`${relative(dir, path)} contains "${marker}"`)
  }
  return [...new Set(leaks)]
}
