import {refusals} from './log.ts'

/**
 * The one way this process reads a request body: counted while it streams, whether or not the
 * client sent Content-Length, and abandoned the moment it passes its cap. Node's parser already
 * holds a body to its declared Content-Length, so a declared length over the cap is refused
 * before a byte is read; a chunked body is read up to the cap plus one chunk, never further.
 * The rest of an abandoned body is drained and discarded by @hono/node-server (at most 500 ms or
 * 64 MiB, then it closes the socket), never buffered.
 */
export class BodyTooLargeError extends Error {
  readonly limit: number

  constructor(limit: number) {
    super(`Request body exceeds ${limit} bytes`)
    this.limit = limit
  }
}

function declaredLength(request: Request): number | undefined {
  const header = request.headers.get('content-length')
  if (header === null || request.headers.has('transfer-encoding')) return undefined
  const length = Number(header)
  return Number.isFinite(length) ? length : undefined
}

/** Reads the whole body of `request`, or throws BodyTooLargeError once it passes `limit` bytes. */
export async function readBody(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = declaredLength(request)
  if (declared !== undefined && declared > limit) throw new BodyTooLargeError(limit)
  // A declared length is a bound Node's parser enforces: the whole body is read at once
  // (@hono/node-server reads it straight from the socket, without a web stream per request).
  if (declared !== undefined) return new Uint8Array(await request.arrayBuffer())
  if (!request.body) return new Uint8Array(new ArrayBuffer(0))
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const {done, value} = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      // Stop reading; cancelling would destroy the socket before the 413 could be sent.
      reader.releaseLock()
      throw new BodyTooLargeError(limit)
    }
    chunks.push(value)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}

/**
 * The same request with its body read under `limit`, for parsers that take a Request
 * (`formData()`, `text()`): they then never see more than the cap.
 */
export async function withBoundedBody(request: Request, limit: number): Promise<Request> {
  const body = await readBody(request, limit)
  return new Request(request.url, {method: request.method, headers: request.headers, body})
}

/** Logs a 413 once per client per minute (server/http/log.ts), with the attacker's path escaped. */
export function logTooLarge(client: string, method: string, path: string, limit: number): void {
  refusals.refuse(
    client,
    '413',
    `[http] 413 ${method} ${path} from ${client}: body over ${limit} bytes`,
  )
}
