import {existsSync, readFileSync, statSync} from 'node:fs'
import {extname, join, normalize, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Context} from 'hono'
import {negotiate, type Encoding} from '../compress.ts'
import {clientOf} from '../http/clientAddress.ts'
import {refusals} from '../http/log.ts'

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

/**
 * On every Studio response: keep it out of search engines (header and the noindex meta in
 * index.html); no other site may frame the page that holds the owner's token (clickjacking);
 * no content sniffing. The page itself also gets the Studio's full policy
 * (contentSecurityPolicy.ts).
 */
const noindex = {
  'x-robots-tag': 'noindex, nofollow',
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': "frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
}

/** What the build writes `.br` and `.gz` forms of (web/vite.precompress.ts). */
const compressible = new Set(['.js', '.css', '.svg', '.json'])

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile()
}

/**
 * The file in the encoding the browser prefers, from the forms the build wrote beside it
 * (studio/vite.studio.ts runs web/vite.precompress.ts): the 8.4 MB of JavaScript is 2.2 MB as
 * brotli-11 and 2.7 MB as gzip-9, and brotli 11 takes seconds per large chunk, far too slow for
 * a request. A build without them (an older dist/) is served as it is.
 */
function precompressed(
  file: string,
  acceptEncoding: string | undefined,
): {body: Buffer<ArrayBuffer>; encoding: Encoding} {
  const encoding = compressible.has(extname(file)) ? negotiate(acceptEncoding) : 'identity'
  const variant = {br: `${file}.br`, gzip: `${file}.gz`, identity: file}[encoding]
  if (encoding !== 'identity' && isFile(variant)) return {body: readFileSync(variant), encoding}
  return {body: readFileSync(file), encoding: 'identity'}
}

/** The path below /studio, decoded once; undefined when its escapes are malformed. */
function studioRelativePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path.replace(/^\/studio\/?/, ''))
  } catch {
    return undefined
  }
}

/**
 * The file a path under assets/ names, inside `distDir`, else inside the previous build when
 * only that one has it (a Studio opened before an upgrade loads its chunks lazily,
 * server/build/served.ts); undefined for any other path.
 */
function hashedFile(
  relative: string,
  distDir: string,
  previousDistDir: string | undefined,
): string | undefined {
  if (!relative.startsWith('assets/')) return undefined
  const file = normalize(join(distDir, relative))
  if (!file.startsWith(distDir + sep)) return undefined
  if (isFile(file) || previousDistDir === undefined) return file
  const previous = normalize(join(previousDistDir, relative))
  return previous.startsWith(previousDistDir + sep) && isFile(previous) ? previous : file
}

/**
 * Serves dist/studio under /studio: hashed assets with a long cache, every other path falls back
 * to index.html (the Studio routes in the browser). Paths never leave the dist directory.
 */
export function serveStudio(
  c: Context,
  {
    distDir = studioDistDir,
    previousDistDir,
    policy,
  }: {
    distDir?: string
    /** The build before it, whose chunks an already open Studio may still ask for. */
    previousDistDir?: string
    /** The page's Content-Security-Policy (contentSecurityPolicy.ts). */
    policy?: string
  } = {},
): Response {
  const indexFile = join(distDir, 'index.html')
  if (!existsSync(indexFile)) {
    console.error(`[studio] ${indexFile} is missing: run \`npm run build\``)
    return c.text('The Studio is not built yet: run `npm run build`.', 503, noindex)
  }
  const relative = studioRelativePath(c.req.path)
  if (relative === undefined) {
    const client = clientOf(c).key
    refusals.refuse(client, 'bad-escape', `[studio] 400 ${c.req.path} from ${client}: bad escape`)
    return c.text('Bad request: malformed escape in the path', 400, noindex)
  }
  const file = hashedFile(relative, distDir, previousDistDir)
  if (file !== undefined) {
    if (!isFile(file)) return c.text('Not found', 404, noindex)
    const {body, encoding} = precompressed(file, c.req.header('accept-encoding'))
    return new Response(body, {
      headers: {
        'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'public, max-age=31536000, immutable',
        ...(compressible.has(extname(file)) && {vary: 'Accept-Encoding'}),
        ...(encoding !== 'identity' && {'content-encoding': encoding}),
        ...noindex,
      },
    })
  }
  return new Response(readFileSync(indexFile), {
    headers: {
      'content-type': contentTypes['.html'],
      'cache-control': 'no-cache',
      ...noindex,
      ...(policy && {'content-security-policy': policy}),
    },
  })
}
