import {createHash} from 'node:crypto'
import {CompressedBody, negotiate} from '../compress.ts'

/** A rendered page as kept in the render cache: status, body in every encoding, validator. */
export class RenderedPage {
  readonly status: number
  readonly etag: string
  private readonly body: CompressedBody

  /** Set on every answer: the CSP (hashes of this page's build) and the other browser defences. */
  private readonly securityHeaders: Record<string, string>

  constructor(status: number, html: string, securityHeaders: Record<string, string> = {}) {
    this.status = status
    this.securityHeaders = securityHeaders
    const raw = Buffer.from(html)
    this.etag = `"${createHash('sha1').update(raw).digest('base64url')}"`
    // Quality 5: near-best size for HTML at a fraction of quality 11's time.
    this.body = new CompressedBody(raw, 5)
  }

  respond(
    acceptEncoding: string | undefined,
    ifNoneMatch: string | undefined,
    head = false,
  ): Response {
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      // Revalidate every time (cheap: ETag), so a published post shows up at once.
      'cache-control': 'no-cache',
      etag: this.etag,
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      ...this.securityHeaders,
    }
    if (
      ifNoneMatch &&
      this.status === 200 &&
      ifNoneMatch.split(',').some((tag) => tag.trim() === this.etag)
    ) {
      return new Response(null, {status: 304, headers})
    }
    const encoding = negotiate(acceptEncoding)
    if (encoding !== 'identity') headers['content-encoding'] = encoding
    return new Response(head ? null : this.body.get(encoding), {status: this.status, headers})
  }
}
