import {CachedBody} from '../http/cachedBody.ts'

/** A rendered page as kept in the render cache: status, body in every encoding, validator. */
export class RenderedPage {
  readonly status: number
  private readonly body: CachedBody

  /**
   * Set on every answer, over the defaults: the CSP (hashes of this page's build), the other
   * browser defences, and `no-store` for a one-time page.
   */
  private readonly securityHeaders: Record<string, string>

  /**
   * `brotliQuality`: 5 by default, near-best size for HTML at a fraction of quality 11's time
   * (~0.5 ms for a 30 KB page); a page seldom asked for twice takes a quicker one.
   */
  constructor(
    status: number,
    html: string,
    securityHeaders: Record<string, string> = {},
    brotliQuality = 5,
  ) {
    this.status = status
    this.securityHeaders = securityHeaders
    this.body = new CachedBody(Buffer.from(html), {brotliQuality})
  }

  /** `extra`: this answer's own headers (its `X-Cache`), over the page's. */
  respond(
    acceptEncoding: string | undefined,
    ifNoneMatch: string | undefined,
    head = false,
    extra: Record<string, string> = {},
  ): Response {
    return this.body.respond({acceptEncoding, ifNoneMatch, head}, this.status, {
      'content-type': 'text/html; charset=utf-8',
      // Revalidate every time (cheap: ETag), so a published post shows up at once.
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      ...this.securityHeaders,
      ...extra,
    })
  }
}
