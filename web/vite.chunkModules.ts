import {relative} from 'node:path'
import type {Plugin} from 'vite'

/** Where the client build lists each chunk's modules (beside Vite's manifest; never served). */
export const chunkModulesFile = '.vite/chunk-modules.json'

/**
 * Writes, for every emitted chunk, the modules bundled into it (paths relative to the project,
 * `\0` virtual ids as they are): Vite's manifest names chunks but not what they contain, and
 * e2e/studio-chunks.test.ts must know which chunks hold Studio or visual-editing code.
 */
export function chunkModules(): Plugin {
  let root = process.cwd()
  return {
    name: 'scriptorium:chunk-modules',
    apply: 'build',
    configResolved(config) {
      root = config.root
    },
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {}
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue
        chunks[output.fileName] = output.moduleIds.map((id) =>
          id.startsWith('\0') ? id : relative(root, id),
        )
      }
      this.emitFile({
        type: 'asset',
        fileName: chunkModulesFile,
        source: JSON.stringify(chunks, null, 1),
      })
    },
  }
}
