import {existsSync, readFileSync, statSync} from 'node:fs'
import {extname, join, normalize, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Context} from 'hono'

/** Where `vite build --mode studio` writes the Studio (studio/vite.studio.ts). */
export const studioDistDir = fileURLToPath(new URL('../../dist/studio', import.meta.url))

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
}

// The Studio is private: keep it out of search engines (header and the noindex meta in index.html).
const noindex = {'x-robots-tag': 'noindex, nofollow'}

/**
 * Serves dist/studio under /studio: hashed assets with a long cache, every other path falls back
 * to index.html (the Studio routes in the browser). Paths never leave the dist directory.
 */
export function serveStudio(c: Context, distDir = studioDistDir): Response {
  const indexFile = join(distDir, 'index.html')
  if (!existsSync(indexFile)) {
    console.error(`[studio] ${indexFile} is missing: run \`npm run build\``)
    return c.text('The Studio is not built yet: run `npm run build`.', 503, noindex)
  }
  const relative = decodeURIComponent(c.req.path.replace(/^\/studio\/?/, ''))
  const file = normalize(join(distDir, relative))
  const inside = file.startsWith(distDir + sep)
  if (inside && relative.startsWith('assets/')) {
    if (!existsSync(file) || !statSync(file).isFile()) return c.text('Not found', 404, noindex)
    return new Response(readFileSync(file), {
      headers: {
        'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'public, max-age=31536000, immutable',
        ...noindex,
      },
    })
  }
  return new Response(readFileSync(indexFile), {
    headers: {'content-type': contentTypes['.html'], 'cache-control': 'no-cache', ...noindex},
  })
}
