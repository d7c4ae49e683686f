/**
 * Sent as `retry:` first on every stream: EventSource waits this long before it reconnects by
 * itself (3 s by default), so a restart of the lake's process costs a listener about half a second.
 */
export const reconnectDelayMs = 500

/**
 * One server-sent-events response (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 * `event:`/`id:`/`data:` lines and a blank line per event, comments as keep-alives. Works on
 * HTTP/1.1 and HTTP/2 through @hono/node-server, which cancels the body when the client goes.
 */
export class SseStream {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined
  private readonly pending: Uint8Array[] = []
  private readonly cleanups: Array<() => void> = []
  private readonly timer: NodeJS.Timeout
  private readonly body: ReadableStream<Uint8Array>
  private closed = false
  /** Bytes a slow client may leave unread before it is cut off (it can resume). */
  private readonly maxBuffered: number

  constructor(options: {
    keepAliveMs: number
    onClose?: () => void
    maxBufferedBytes?: number
    /** Asked before each keep-alive; false ends the stream (e.g. its session was revoked). */
    stillWanted?: () => boolean
  }) {
    this.maxBuffered = options.maxBufferedBytes ?? 16 * 1024 * 1024
    if (options.onClose) this.cleanups.push(options.onClose)
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller
          for (const chunk of this.pending.splice(0)) controller.enqueue(chunk)
        },
        cancel: () => this.finish(),
      },
      new ByteLengthQueuingStrategy({highWaterMark: 64 * 1024}),
    )
    const stillWanted = options.stillWanted ?? (() => true)
    this.timer = setInterval(() => {
      if (stillWanted()) this.write(': keepalive\n\n')
      else this.close()
    }, options.keepAliveMs)
  }

  /** Runs `cleanup` once when the stream ends, however it ends. */
  onClose(cleanup: () => void): void {
    if (this.closed) cleanup()
    else this.cleanups.push(cleanup)
  }

  /** Sets how long EventSource waits before it reconnects by itself (3 s unless told). */
  retry(ms: number): void {
    this.write(`retry: ${Math.round(ms)}\n\n`)
  }

  send(event: string, data: unknown, id?: string): void {
    this.write(
      `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`,
    )
  }

  private write(text: string): void {
    if (this.closed) return
    const chunk = new TextEncoder().encode(text)
    if (!this.controller) {
      this.pending.push(chunk)
      return
    }
    if ((this.controller.desiredSize ?? 0) < -this.maxBuffered) {
      console.warn('[lake] listener is not reading; closing its stream')
      this.close()
      return
    }
    this.controller.enqueue(chunk)
  }

  get isClosed(): boolean {
    return this.closed
  }

  /** Ends the response after what was already sent. */
  close(): void {
    if (this.closed) return
    try {
      this.controller?.close()
    } catch {
      // Already cancelled by the client.
    }
    this.finish()
  }

  private finish(): void {
    if (this.closed) return
    this.closed = true
    clearInterval(this.timer)
    for (const cleanup of this.cleanups.splice(0)) cleanup()
  }

  response(): Response {
    return new Response(this.body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // Proxies such as nginx would otherwise buffer the stream.
        'x-accel-buffering': 'no',
      },
    })
  }
}
