import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {previewEntry, type Manifest} from '../scripts/chunkGraph.ts'
import {publicChunks, studioCode, studioNotes} from './chunks.ts'

// The web bench's Studio check on a small client build written to a temp dir: the same files
// Vite writes (manifest, chunk-modules list, scripts), with Studio code placed where a reader
// would, or would not, load it. The real build is checked by e2e/studio-chunks.test.ts.
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

const studioUi = 'node_modules/@sanity/ui/dist/index.mjs'

/** A build whose entry loads `lazy.js` on demand and the preview chunk only through its import. */
function build(
  options: {
    code?: Record<string, string>
    modules?: Record<string, string[]>
    manifest?: (manifest: Manifest) => void
  } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-chunks-'))
  dirs.push(dir)
  const manifest: Manifest = {
    'web/entry.client.tsx': {
      file: 'assets/app.js',
      isEntry: true,
      imports: ['_shared.js'],
      dynamicImports: ['web/lazy.tsx', previewEntry],
    },
    '_shared.js': {file: 'assets/shared.js'},
    'web/lazy.tsx': {file: 'assets/lazy.js', isDynamicEntry: true, imports: ['_shared.js']},
    [previewEntry]: {
      file: 'assets/preview.js',
      isDynamicEntry: true,
      imports: ['_shared.js', '_overlays.js'],
    },
    '_overlays.js': {file: 'assets/overlays.js'},
  }
  options.manifest?.(manifest)
  const modules: Record<string, string[]> = {
    'assets/app.js': ['web/entry.client.tsx'],
    'assets/shared.js': ['node_modules/react/index.js'],
    'assets/lazy.js': ['web/lazy.tsx'],
    'assets/preview.js': [previewEntry],
    'assets/overlays.js': ['node_modules/@sanity/visual-editing/dist/index.js', studioUi],
    ...options.modules,
  }
  mkdirSync(join(dir, '.vite'), {recursive: true})
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest))
  writeFileSync(join(dir, '.vite', 'chunk-modules.json'), JSON.stringify(modules))
  const code: Record<string, string> = {
    'assets/app.js': 'export const app = 1',
    'assets/shared.js': 'export const shared = 1',
    'assets/lazy.js': 'export const lazy = 1',
    'assets/preview.js': 'export const preview = 1',
    'assets/overlays.js': 'const ui = "data-ui"; export default ui',
    ...options.code,
  }
  for (const [file, text] of Object.entries(code)) writeFileSync(join(dir, file), text)
  return dir
}

const readerFiles = (dir: string) => studioCode(dir).reader.map(({file}) => file)

describe('the web bench’s Studio check (bench/chunks.ts)', () => {
  it('passes Studio code that only preview loads, and reports those chunks with their size', () => {
    const dir = build()
    const studio = studioCode(dir)
    expect(studio.reader).toEqual([])
    expect(studio.previewOnly.map(({file}) => file)).toContain('assets/overlays.js')
    const chunks = publicChunks(dir)
    expect(chunks.filter((c) => c.previewOnly).map((c) => c.file)).toEqual(
      expect.arrayContaining(['assets/preview.js', 'assets/overlays.js']),
    )
    // Shared with the reader's pages: not preview-only.
    expect(chunks.find((c) => c.file === 'assets/shared.js')?.previewOnly).toBe(false)
    const [verdict, preview] = studioNotes(studio, chunks)
    expect(verdict).toMatch(/^Target MET/)
    expect(preview).toMatch(/assets\/overlays\.js \d+\.\d KB/)
    expect(preview).toContain('@sanity/ui')
  })

  it('fails on Studio code in a chunk a reader loads on demand', () => {
    const dir = build({code: {'assets/lazy.js': 'export const lazy = "data-ui"'}})
    expect(readerFiles(dir)).toEqual(['assets/lazy.js'])
    const [verdict] = studioNotes(studioCode(dir), publicChunks(dir))
    expect(verdict).toMatch(
      /^Target MISSED: STUDIO CODE IN A CHUNK A READER LOADS: assets\/lazy\.js/,
    )
  })

  it('fails on a Studio module in a chunk shared by preview and the reader’s pages', () => {
    const dir = build({modules: {'assets/shared.js': ['node_modules/react/index.js', studioUi]}})
    expect(readerFiles(dir)).toEqual(['assets/shared.js'])
  })

  it('fails when the preview chunks are imported statically, so every page loads them', () => {
    const dir = build({
      manifest: (manifest) => {
        manifest['web/entry.client.tsx'].imports?.push(previewEntry)
      },
    })
    expect(readerFiles(dir)).toContain('assets/overlays.js')
    expect(publicChunks(dir).some((c) => c.previewOnly)).toBe(false)
  })

  it('counts a script in neither graph as a reader’s', () => {
    const dir = build({code: {'assets/stray.js': 'const s = "structureTool"'}})
    expect(readerFiles(dir)).toEqual(['assets/stray.js'])
  })
})
