import {readFile, stat} from 'node:fs/promises'
import {extname, join, sep} from 'node:path'
import {CachedBody} from '../http/cachedBody.ts'

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
}
const compressible = new Set(['.js', '.css', '.svg', '.json', '.txt', '.ico', '.webmanifest'])

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file)
  } catch {
    return undefined
  }
}

/**
 * The build-relative file a request path names (`assets/app-1a2b.js`), or undefined: decoded
 * exactly once (a malformed escape names no file), empty segments dropped, and no segment may
 * start with a dot — which refuses `..`, `.vite/manifest.json` and every dotfile, whether the
 * dot came literally or as `%2E`.
 */
export function assetPath(pathname: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return undefined
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.endsWith('/')) return undefined
  const segments = decoded.split('/').filter((segment) => segment !== '')
  if (segments.length === 0 || segments.some((segment) => segment.startsWith('.'))) return undefined
  const relative = segments.join('/')
  return contentTypes[extname(relative).toLowerCase()] ? relative : undefined
}

/** Vite names built files `name-<hash>.ext` under assets/: their content never changes. */
const immutable = 'public, max-age=31536000, immutable'
const revalidate = 'public, max-age=3600'

interface Asset {
  type: string
  body: CachedBody
  cacheControl: string
}

/**
 * Serves the browser build (dist/client) from memory: hashed files with year-long immutable
 * caching, everything else for an hour; brotli/gzip computed once per file. Never serves the
 * Vite manifest or anything outside the directory. A hashed file that only the previous build
 * has (`previousRoot`) is served from there: a page loaded before an upgrade still gets the
 * chunks it names (server/build/served.ts).
 */
export class ClientAssets {
  private readonly root: string
  private readonly previousRoot: string | undefined
  private readonly files = new Map<string, Promise<Asset | undefined>>()

  constructor(root: string, previousRoot?: string) {
    this.root = root
    this.previousRoot = previousRoot
  }

  /** Files held in memory (and loads under way). */
  get size(): number {
    return this.files.size
  }

  /** The asset's response, or undefined when `pathname` is not a file of the build. */
  async respond(
    pathname: string,
    acceptEncoding: string | undefined,
  ): Promise<Response | undefined> {
    const relative = assetPath(pathname)
    if (relative === undefined) return undefined
    // Keyed on the normalized file, so `//share.png` and `/%73hare.png` are one entry; only
    // files that exist stay, so the map is bounded by the build.
    let asset = this.files.get(relative)
    if (!asset) {
      asset = this.load(relative)
      this.files.set(relative, asset)
    }
    const found = await asset
    if (!found) {
      this.files.delete(relative)
      return undefined
    }
    return found.body.respond({acceptEncoding}, 200, {
      'content-type': found.type,
      'cache-control': found.cacheControl,
      'x-content-type-options': 'nosniff',
    })
  }

  private async load(relative: string): Promise<Asset | undefined> {
    const found = await this.loadFrom(this.root, relative)
    if (found || !this.previousRoot || !relative.startsWith('assets/')) return found
    return this.loadFrom(this.previousRoot, relative)
  }

  private async loadFrom(root: string, relative: string): Promise<Asset | undefined> {
    const file = join(root, relative)
    if (!file.startsWith(root + sep)) return undefined
    const ext = extname(file).toLowerCase()
    const type = contentTypes[ext]
    if (!type) return undefined
    try {
      if (!(await stat(file)).isFile()) return undefined
      const raw = await readFile(file)
      const [br, gzip] = compressible.has(ext)
        ? await Promise.all([readOptional(`${file}.br`), readOptional(`${file}.gz`)])
        : []
      return {
        type,
        // Without build-time forms, compress at a quality quick enough for a first request.
        body: new CachedBody(raw, {precompressed: {br, gzip}, compress: compressible.has(ext)}),
        cacheControl: relative.startsWith('assets/') ? immutable : revalidate,
      }
    } catch {
      return undefined
    }
  }
}
