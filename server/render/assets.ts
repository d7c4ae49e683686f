import {readFile, stat} from 'node:fs/promises'
import {extname, join, normalize, sep} from 'node:path'
import {CompressedBody, negotiate} from '../compress.ts'

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

/** Vite names built files `name-<hash>.ext` under assets/: their content never changes. */
const immutable = 'public, max-age=31536000, immutable'
const revalidate = 'public, max-age=3600'

interface Asset {
  type: string
  body: CompressedBody
  compressible: boolean
  cacheControl: string
}

/**
 * Serves the browser build (dist/client) from memory: hashed files with year-long immutable
 * caching, everything else for an hour; brotli/gzip computed once per file. Never serves the
 * Vite manifest or anything outside the directory.
 */
export class ClientAssets {
  private readonly root: string
  private readonly files = new Map<string, Promise<Asset | undefined>>()

  constructor(root: string) {
    this.root = root
  }

  /** The asset's response, or undefined when `pathname` is not a file of the build. */
  async respond(
    pathname: string,
    acceptEncoding: string | undefined,
  ): Promise<Response | undefined> {
    if (
      !contentTypes[extname(pathname).toLowerCase()] ||
      pathname.includes('\0') ||
      /(^|\/)\./.test(pathname)
    )
      return undefined
    let asset = this.files.get(pathname)
    if (!asset) {
      asset = this.load(pathname)
      this.files.set(pathname, asset)
    }
    const found = await asset
    if (!found) {
      this.files.delete(pathname)
      return undefined
    }
    const encoding = found.compressible ? negotiate(acceptEncoding) : 'identity'
    const headers: Record<string, string> = {
      'content-type': found.type,
      'cache-control': found.cacheControl,
      'x-content-type-options': 'nosniff',
    }
    if (found.compressible) headers.vary = 'Accept-Encoding'
    if (encoding !== 'identity') headers['content-encoding'] = encoding
    return new Response(found.body.get(encoding), {status: 200, headers})
  }

  private async load(pathname: string): Promise<Asset | undefined> {
    let relative: string
    try {
      relative = normalize(decodeURIComponent(pathname)).replace(/^[/\\]+/, '')
    } catch {
      return undefined
    }
    const file = join(this.root, relative)
    if (!file.startsWith(this.root + sep)) return undefined
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
        body: new CompressedBody(raw, 5, {br, gzip}),
        compressible: compressible.has(ext),
        cacheControl: relative.startsWith(`assets${sep}`) ? immutable : revalidate,
      }
    } catch {
      return undefined
    }
  }
}
