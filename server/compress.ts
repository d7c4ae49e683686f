import {brotliCompressSync, constants, gzipSync} from 'node:zlib'

export type Encoding = 'br' | 'gzip' | 'identity'

/** Picks the response encoding from Accept-Encoding: brotli, then gzip, else none. */
export function negotiate(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity'
  const accepted = acceptEncoding
    .toLowerCase()
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
    .map(([name]) => name)
  if (accepted.includes('br')) return 'br'
  if (accepted.includes('gzip')) return 'gzip'
  return 'identity'
}

/** A view of a Node buffer as the Uint8Array a Response body takes, without copying. */
function bytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
  // Buffers from fs and zlib are backed by a plain ArrayBuffer; a shared one would be copied.
  if (!(buffer.buffer instanceof ArrayBuffer)) return new Uint8Array(buffer)
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
}

/**
 * A body with its compressed forms computed once, on first demand, and kept: pages and assets
 * are compressed once per content change, not once per request.
 */
export class CompressedBody {
  readonly raw: Uint8Array<ArrayBuffer>
  private readonly brotliQuality: number
  private br: Uint8Array<ArrayBuffer> | undefined
  private gzip: Uint8Array<ArrayBuffer> | undefined

  /** `precompressed`: forms made at build time (web/vite.precompress.ts), used as they are. */
  constructor(
    raw: Buffer,
    brotliQuality: number,
    precompressed: {br?: Buffer; gzip?: Buffer} = {},
  ) {
    this.raw = bytes(raw)
    this.brotliQuality = brotliQuality
    if (precompressed.br) this.br = bytes(precompressed.br)
    if (precompressed.gzip) this.gzip = bytes(precompressed.gzip)
  }

  get(encoding: Encoding): Uint8Array<ArrayBuffer> {
    if (encoding === 'br') {
      this.br ??= bytes(
        brotliCompressSync(this.raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: this.brotliQuality,
            [constants.BROTLI_PARAM_SIZE_HINT]: this.raw.length,
          },
        }),
      )
      return this.br
    }
    if (encoding === 'gzip') {
      this.gzip ??= bytes(gzipSync(this.raw, {level: 6}))
      return this.gzip
    }
    return this.raw
  }
}
