import {
  constants,
  type Http2SecureServer,
  type Http2Session,
  type ServerHttp2Stream,
} from 'node:http2'
import {truncateAddress} from './clientAddress.ts'
import {refusals} from './log.ts'
import {PacedBody, PaceSweep} from './paceSweep.ts'

export interface Http2AbuseLimits {
  /** The window the counts below are kept over. */
  windowMs: number
  /** Streams the peer may reset in a window (CVE-2023-44487, "rapid reset"). */
  maxResets: number
  /** SETTINGS frames the peer may send in a window (a browser sends one or two per session). */
  maxSettings: number
  /** PING frames the peer may send in a window (browsers ping now and then for liveness). */
  maxPings: number
  /** A request body may take this long before its pace is checked (as server/http/slowBodies.ts). */
  bodyGraceMs: number
  /** ... then the session must keep up this average rate while a request of it is unfinished. */
  minBodyBytesPerSecond: number
  /** How often unfinished requests are checked. */
  checkIntervalMs: number
}

/** nghttp2's stream state while both sides may still send: the peer has not ended its request. */
const streamOpen = constants.NGHTTP2_STREAM_STATE_OPEN

/**
 * Ends HTTP/2 sessions that abuse the protocol rather than ask for anything: opening and
 * resetting streams in a loop (rapid reset), flooding SETTINGS or PING frames (each costs an
 * acknowledgement), or opening streams whose requests never finish (slowloris over h2, which
 * Node's HTTP/1 timeouts do not see). Such a session gets GOAWAY with ENHANCE_YOUR_CALM and is
 * closed; its client may connect again and is held to the same counts. Honest clients reset a
 * stream when a navigation is abandoned and ping rarely, far below the limits.
 */
export function guardHttp2Sessions(server: Http2SecureServer, limits: Http2AbuseLimits): void {
  const unfinished = new PaceSweep({
    graceMs: limits.bodyGraceMs,
    minBytesPerSecond: limits.minBodyBytesPerSecond,
    checkIntervalMs: limits.checkIntervalMs,
  })
  server.on('session', (session: Http2Session) => {
    const count = frameCounter(session, limits)
    session.on('remoteSettings', () => count('settings', limits.maxSettings))
    session.on('ping', () => count('ping', limits.maxPings))
    session.on('stream', (stream: ServerHttp2Stream) => {
      stream.once('close', () => {
        if (stream.rstCode !== undefined && stream.rstCode !== constants.NGHTTP2_NO_ERROR)
          count('reset', limits.maxResets)
      })
      if (!stream.endAfterHeaders) unfinished.add(new Http2Body(stream, session))
    })
  })
}

/** GOAWAY with ENHANCE_YOUR_CALM, then the session is closed; said once a minute per client. */
function calm(session: Http2Session, kind: string, what: string): void {
  if (session.destroyed) return
  const client = truncateAddress(session.socket?.remoteAddress ?? 'unknown')
  refusals.refuse(client, `h2-${kind}`, `[http2] session from ${client} closed: ${what}`)
  session.goaway(constants.NGHTTP2_ENHANCE_YOUR_CALM)
  // GOAWAY is sent first; whatever the peer still has open is not waited for.
  setImmediate(() => session.destroy())
}

type FrameKind = 'reset' | 'settings' | 'ping'

/** Counts a session's frames of each kind per window, and calms it past `max`. */
function frameCounter(session: Http2Session, limits: Http2AbuseLimits) {
  const counts = {reset: 0, settings: 0, ping: 0}
  let windowStart = Date.now()
  return (kind: FrameKind, max: number) => {
    const now = Date.now()
    if (now - windowStart >= limits.windowMs) {
      counts.reset = counts.settings = counts.ping = 0
      windowStart = now
    }
    if (++counts[kind] > max)
      calm(session, kind, `over ${max} ${kind} frames in ${limits.windowMs / 1000} s`)
  }
}

class Http2Body extends PacedBody {
  private readonly stream: ServerHttp2Stream
  private readonly session: Http2Session

  constructor(stream: ServerHttp2Stream, session: Http2Session) {
    super(session.socket?.bytesRead ?? 0)
    this.stream = stream
    this.session = session
  }

  /** The session's bytes: its streams share the connection. */
  bytesRead(): number {
    return this.session.socket?.bytesRead ?? 0
  }

  finished(): boolean {
    return this.stream.destroyed || this.stream.state.state !== streamOpen
  }

  waiting(): boolean {
    return this.stream.readableLength > 0
  }

  refuse(minBytesPerSecond: number): void {
    calm(this.session, 'slow-request', `a request unfinished, under ${minBytesPerSecond} bytes/s`)
  }
}
