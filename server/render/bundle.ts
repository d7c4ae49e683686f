import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import type {ClientAssets} from '../../web/entry.server.tsx'
import {scriptHash} from '../http/securityHeaders.ts'

/** The built server renderer's module (dist/server/entry.server.js, from web/entry.server.tsx). */
export type SiteRenderer = typeof import('../../web/entry.server.tsx')

export interface SiteBundle {
  renderer: SiteRenderer
  assets: ClientAssets
  /** CSP hashes of the inline scripts this build's pages run: the boot script, speculation rules. */
  scriptHashes: string[]
}

interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
}

/** The entry and every chunk it imports statically (to preload), from Vite's manifest. */
export function entryAssets(
  manifest: Record<string, ManifestChunk>,
  entryKey: string,
): ClientAssets {
  const entry = manifest[entryKey]
  if (!entry) throw new Error(`${entryKey} is not in the client manifest`)
  const preload = new Set<string>()
  const visit = (key: string) => {
    for (const dep of manifest[key]?.imports ?? []) {
      const file = manifest[dep]?.file
      if (file && !preload.has(`/${file}`)) {
        preload.add(`/${file}`)
        visit(dep)
      }
    }
  }
  visit(entryKey)
  return {entry: `/${entry.file}`, preload: [...preload]}
}

/**
 * Loads the built site (`npm run build`): the SSR module as plain JavaScript, so the server
 * process never compiles TSX, and the client manifest. Undefined when the site is not built.
 */
export async function loadSiteBundle(distDir: string): Promise<SiteBundle | undefined> {
  const serverEntry = join(distDir, 'server', 'entry.server.js')
  const manifestFile = join(distDir, 'client', '.vite', 'manifest.json')
  if (!existsSync(serverEntry) || !existsSync(manifestFile)) return undefined
  const manifest: Record<string, ManifestChunk> = JSON.parse(await readFile(manifestFile, 'utf8'))
  const renderer: SiteRenderer = await import(pathToFileURL(serverEntry).href)
  const assets = entryAssets(manifest, 'web/entry.client.tsx')
  // The built renderer's own text of the boot script: the hash must match it byte for byte.
  if (typeof renderer.bootScriptSource !== 'function') {
    console.error('[site] the build predates the CSP script hash: run `npm run build`')
    return {renderer, assets, scriptHashes: []}
  }
  const scriptHashes = [scriptHash(renderer.bootScriptSource(assets))]
  // The speculation rules' <script type="speculationrules"> needs its hash as much as a script.
  if (typeof renderer.speculationRulesSource === 'function')
    scriptHashes.push(scriptHash(renderer.speculationRulesSource()))
  return {renderer, assets, scriptHashes}
}
