import {request} from 'node:http'
import {brotliDecompressSync, gunzipSync, inflateSync} from 'node:zlib'

export interface Timed {
  status: number
  /** Time to the last byte, in ms. */
  ms: number
  /** Bytes on the wire (compressed if the server compressed). */
  wireBytes: number
  /** Bytes after decoding: what the browser parses. */
  bytes: number
  encoding: string
  body: string
}

function decode(raw: Buffer, encoding: string): Buffer {
  if (encoding === 'br') return brotliDecompressSync(raw)
  if (encoding === 'gzip') return gunzipSync(raw)
  if (encoding === 'deflate') return inflateSync(raw)
  return raw
}

/**
 * GET with a browser's Accept-Encoding, timing to the last byte and counting both the bytes
 * transferred and the decoded size (fetch() decodes transparently and hides the former).
 */
export function timedGet(
  url: string,
  acceptEncoding = 'gzip, deflate, br',
  localAddress?: string,
): Promise<Timed> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const options = {headers: {'accept-encoding': acceptEncoding}, localAddress}
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const ms = performance.now() - start
        const raw = Buffer.concat(chunks)
        const encoding = String(res.headers['content-encoding'] ?? 'identity')
        const decoded = decode(raw, encoding)
        resolve({
          status: res.statusCode ?? 0,
          ms,
          wireBytes: raw.length,
          bytes: decoded.length,
          encoding,
          body: decoded.toString('utf8'),
        })
      })
    })
    req.on('error', reject)
    req.end()
  })
}
