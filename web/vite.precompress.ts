import {readdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {promisify} from 'node:util'
import {brotliCompress, constants, gzip} from 'node:zlib'
import type {Plugin} from 'vite'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)
const compressible = /\.(js|css|svg|json|txt|webmanifest)$/

/**
 * Writes `file.br` and `file.gz` beside every compressible file of the client build, at maximum
 * quality: brotli 11 on the entry takes seconds, too slow to do on a visitor's first request.
 * server/render/assets.ts serves these when the browser accepts them.
 */
export function precompress(): Plugin {
  return {
    name: 'scriptorium:precompress',
    apply: 'build',
    async writeBundle(options) {
      const dir = options.dir
      if (!dir) return
      const entries = await readdir(dir, {recursive: true, withFileTypes: true})
      await Promise.all(
        entries
          .filter(
            (entry) =>
              entry.isFile() &&
              compressible.test(entry.name) &&
              !entry.parentPath.includes('.vite'),
          )
          .map(async (entry) => {
            const file = join(entry.parentPath, entry.name)
            const raw = await readFile(file)
            const [br, gzipped] = await Promise.all([
              brotli(raw, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: 11,
                  [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
                },
              }),
              gz(raw, {level: 9}),
            ])
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)])
          }),
      )
    },
  }
}
