import {fileURLToPath} from 'node:url'
import react from '@vitejs/plugin-react'
import {loadEnv, type UserConfig} from 'vite'
import {precompress} from '../web/vite.precompress.ts'
import {ownOrigin} from './vite.ownOrigin.ts'

const rootDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * The Studio's build (`vite build --mode studio`): its own HTML entry in studio/, output in
 * dist/studio, served by server/studio at /studio. SANITY_STUDIO_* variables are read at build
 * time (hosted mode, docs/studio.md). scripts/build.ts sets the outDir to the new build's own
 * folder (`.builds/<name>/studio`).
 */
export function studioViteConfig(): UserConfig {
  // Read as studio/env.ts will see it: .env files and the process's environment.
  const hosted = Boolean(loadEnv('studio', rootDir, 'SANITY_STUDIO_').SANITY_STUDIO_PROJECT_ID)
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: '/studio/',
    envDir: rootDir,
    envPrefix: ['VITE_', 'SANITY_STUDIO_'],
    publicDir: false,
    // A local Studio requests nothing beyond its own origin (docs/studio-protocol.md §g.5); a
    // hosted one talks to sanity.io anyway and keeps Sanity's defaults. Brotli and gzip forms
    // beside each chunk, served by Accept-Encoding (server/studio/static.ts).
    plugins: [react(), ...(hosted ? [] : [ownOrigin()]), precompress()],
    build: {
      outDir: fileURLToPath(new URL('../dist/studio', import.meta.url)),
      emptyOutDir: true,
      // The Studio is large by nature (docs/studio-protocol.md §g.8); do not warn about every chunk.
      chunkSizeWarningLimit: 4000,
      reportCompressedSize: false,
      rollupOptions: {
        onLog(level, log, handler) {
          // react-compiler-runtime opts itself out of the React Compiler with "use no memo"; we
          // do not run the compiler, so the bundler dropping that directive changes nothing.
          if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.id?.includes('react-compiler-runtime'))
            return
          // Brotli 11 over 8 MB of chunks takes about 20 s on 2 cores, by design (build once,
          // serve small): the bundler's note that this plugin is the slow part is expected.
          if (log.code === 'PLUGIN_TIMINGS' && log.message.includes('scriptorium:precompress'))
            return
          handler(level, log)
        },
      },
    },
  }
}
