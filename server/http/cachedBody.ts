import {createHash} from 'node:crypto'
import {CompressedBody, negotiate} from '../compress.ts'

/** A strong validator for `raw`: a content hash, computed once per body, not per request. */
export function etagOf(raw: Uint8Array): string {
  return `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`
}

/**
 * Whether If-None-Match names `etag` (RFC 9110 §13.1.2): a list of tags or `*`, compared weakly,
 * so a `W/` prefix a proxy added still matches.
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  const opaque = etag.replace(/^W\//, '')
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque)
}

export interface CachedBodyOptions {
  /** The validator; by default a hash of the content (`etagOf`). */
  etag?: string
  /** Brotli quality for forms made on demand (5: near-best for text at a fraction of 11's time). */
  brotliQuality?: number
  /** Forms made at build time (web/vite.precompress.ts), used as they are. */
  precompressed?: {br?: Buffer; gzip?: Buffer}
  /** False: always sent as it is, with no Vary (the lake's answers; see api/query.ts). */
  compress?: boolean
}

export interface ConditionalRequest {
  acceptEncoding?: string
  ifNoneMatch?: string
  /** A HEAD request: the same headers, no body. */
  head?: boolean
}

/**
 * A response body kept between requests, served the same way by the site's pages and assets,
 * the discovery files and the lake's query cache: its ETag on every answer, 304 when the client
 * already holds it, and otherwise the encoding the client accepts, each form compressed once
 * and kept.
 */
export class CachedBody {
  readonly etag: string
  /** Bytes of the uncompressed body. */
  readonly size: number
  private readonly body: CompressedBody
  private readonly compress: boolean

  constructor(raw: Buffer, options: CachedBodyOptions = {}) {
    this.body = new CompressedBody(raw, options.brotliQuality ?? 5, options.precompressed)
    this.etag = options.etag ?? etagOf(this.body.raw)
    this.size = raw.byteLength
    this.compress = options.compress ?? true
  }

  /** The uncompressed body as text. */
  text(): string {
    const {buffer, byteOffset, byteLength} = this.body.raw
    return Buffer.from(buffer, byteOffset, byteLength).toString('utf8')
  }

  /** The answer to `request` with `status` and `headers` (the body's own ones are added). */
  respond(request: ConditionalRequest, status: number, headers: Record<string, string>): Response {
    const all: Record<string, string> = {...headers, etag: this.etag}
    if (this.compress) all.vary = all.vary ? `${all.vary}, Accept-Encoding` : 'Accept-Encoding'
    if (status === 200 && matchesEtag(request.ifNoneMatch, this.etag))
      return new Response(null, {status: 304, headers: all})
    const encoding = this.compress ? negotiate(request.acceptEncoding) : 'identity'
    if (encoding !== 'identity') all['content-encoding'] = encoding
    return new Response(request.head ? null : this.body.get(encoding), {status, headers: all})
  }
}
