import {fileURLToPath} from 'node:url'
import react from '@vitejs/plugin-react'
import type {UserConfig} from 'vite'
import {chunkModules} from './vite.chunkModules.ts'
import {precompress} from './vite.precompress.ts'

function reactRouterProduction(file: string): string {
  return fileURLToPath(
    new URL(`../node_modules/react-router/dist/production/${file}`, import.meta.url),
  )
}

/**
 * The public site's two builds (scripts/build.ts runs both): the browser bundle in dist/client
 * with a manifest (the server reads it to link the entry and preload its chunks), and the server
 * renderer in dist/server/entry.server.js, which server/render/ imports as plain JavaScript.
 * scripts/build.ts sets each outDir to the new build's own folder (`.builds/<name>/client`, …).
 */
export function webViteConfig(options: {ssr: boolean}): UserConfig {
  const shared: UserConfig = {
    publicDir: 'web/public',
    plugins: [react()],
    // react-router's package exports point every condition at its development build (dev-only
    // checks and warnings); the site ships its production build, on the server and in the browser.
    resolve: {
      alias: [
        {find: /^react-router$/, replacement: reactRouterProduction('index.mjs')},
        {find: /^react-router\/dom$/, replacement: reactRouterProduction('dom-export.mjs')},
      ],
    },
    // Keep SVG art as cacheable files instead of data URIs inside the JS budget.
    build: {assetsInlineLimit: 0},
  }
  if (options.ssr) {
    return {
      ...shared,
      publicDir: false,
      // Bundle React and friends into the renderer with NODE_ENV fixed at build time, so the
      // server never runs development React whatever the process's environment says.
      define: {'process.env.NODE_ENV': JSON.stringify('production')},
      ssr: {noExternal: true, target: 'node'},
      build: {
        ...shared.build,
        ssr: 'web/entry.server.tsx',
        outDir: 'dist/server',
        emptyOutDir: true,
        copyPublicDir: false,
        rolldownOptions: {
          input: 'web/entry.server.tsx',
          // The browser imports the content client lazily (web/browserClient.ts); the server
          // renderer uses it directly, so that dynamic import rightly stays in one chunk here.
          checks: {ineffectiveDynamicImport: false},
          output: {entryFileNames: 'entry.server.js'},
        },
      },
    }
  }
  return {
    ...shared,
    plugins: [...(shared.plugins ?? []), precompress(), chunkModules()],
    build: {
      ...shared.build,
      outDir: 'dist/client',
      emptyOutDir: true,
      manifest: true,
      // The server renders <link rel="modulepreload"> itself from the manifest.
      modulePreload: {polyfill: false},
      // Precompression (brotli 11) is slow by design; its timing notice is expected.
      rolldownOptions: {
        input: 'web/entry.client.tsx',
        checks: {pluginTimings: false},
        output: {
          // What the app needs to hydrate, in one chunk beside the entry: the preview-only
          // chunks (web/preview/loadPreviewEditing.ts) share React and the router with it, and would
          // otherwise split them into a dozen small files the boot script must preload.
          codeSplitting: {groups: [{name: 'app', tags: ['$initial']}]},
        },
      },
    },
  }
}
