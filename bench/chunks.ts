import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {brotliCompressSync, constants, gzipSync} from 'node:zlib'

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

/** `keys` and, transitively, what they import statically. */
function withStaticImports(manifest: Record<string, ManifestEntry>, keys: string[]): Set<string> {
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
  const manifest = readManifest(dir)
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry)
  const interaction = withStaticImports(manifest, entries)
  const lazy = new Set(
    Object.values(manifest)
      .filter((e) => e.isDynamicEntry)
      .map((e) => e.file),
  )
  return jsFiles(dir)
    .map((path) => {
      const content = readFileSync(path)
      const file = relative(dir, path)
      return {
        file,
        bytes: content.length,
        gzip: gzipSync(content, {level: 9}).length,
        brotli: brotliCompressSync(content, {params: {[constants.BROTLI_PARAM_QUALITY]: 11}})
          .length,
        interaction: interaction.has(file),
        lazy: lazy.has(file),
      }
    })
    .sort((a, b) => b.gzip - a.gzip)
}

/** Module paths that belong to the Studio; @sanity/client and @portabletext are the site's own. */
const studioModule =
  /(^|\/)(studio\/|sanity\.config|node_modules\/(sanity|@sanity\/(ui|vision|structure|desk|icons|mutator|types|schema|util))\/)/
/** Strings that survive minification in Studio code (checked absent from the site build by hand). */
const studioMarkers = [
  'data-ui',
  'Sanity Studio',
  'sanity/structure',
  'structureTool',
  '@sanity/ui',
  '@sanity/vision',
]

/**
 * Studio code in the public bundle: modules named in the manifest (entries, imports, dynamic
 * imports) and, since the manifest names only chunk roots, Studio marker strings in any chunk.
 */
export function studioLeaks(dir = clientDir): string[] {
  const leaks: string[] = []
  for (const [key, entry] of Object.entries(readManifest(dir))) {
    for (const name of [
      key,
      entry.src ?? '',
      ...(entry.imports ?? []),
      ...(entry.dynamicImports ?? []),
    ]) {
      if (studioModule.test(name)) leaks.push(`manifest: ${entry.file} ← ${name}`)
    }
  }
  for (const path of jsFiles(dir)) {
    const text = readFileSync(path, 'utf8')
    for (const marker of studioMarkers)
      if (text.includes(marker)) leaks.push(`${relative(dir, path)} contains "${marker}"`)
  }
  return [...new Set(leaks)]
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
