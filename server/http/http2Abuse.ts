import {
  constants,
  type Http2SecureServer,
  type Http2Session,
  type ServerHttp2Stream,
} from 'node:http2'
import {truncateAddress} from './clientAddress.ts'
import {refusals} from './log.ts'

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

interface Unfinished {
  stream: ServerHttp2Stream
  session: Http2Session
  startedAt: number
  bytesAtStart: number
}

/**
 * Ends HTTP/2 sessions that abuse the protocol rather than ask for anything: opening and
 * resetting streams in a loop (rapid reset), flooding SETTINGS or PING frames (each costs an
 * acknowledgement), or opening streams whose requests never finish (slowloris over h2, which
 * Node's HTTP/1 timeouts do not see). Such a session gets GOAWAY with ENHANCE_YOUR_CALM and is
 * closed; its client may connect again and is held to the same counts. Honest clients reset a
 * stream when a navigation is abandoned and ping rarely, far below the limits.
 */
export function guardHttp2Sessions(server: Http2SecureServer, limits: Http2AbuseLimits): void {
  const unfinished = new UnfinishedRequests(limits)
  server.on('session', (session: Http2Session) => {
    const count = frameCounter(session, limits)
    session.on('remoteSettings', () => count('settings', limits.maxSettings))
    session.on('ping', () => count('ping', limits.maxPings))
    session.on('stream', (stream: ServerHttp2Stream) => {
      stream.once('close', () => {
        if (stream.rstCode !== undefined && stream.rstCode !== constants.NGHTTP2_NO_ERROR)
          count('reset', limits.maxResets)
      })
      if (!stream.endAfterHeaders) unfinished.add(stream, session)
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

/** Requests whose bodies are unfinished, checked on a timer that runs only while there are some. */
class UnfinishedRequests {
  private readonly entries = new Set<Unfinished>()
  private readonly limits: Http2AbuseLimits
  private sweep: NodeJS.Timeout | undefined

  constructor(limits: Http2AbuseLimits) {
    this.limits = limits
  }

  add(stream: ServerHttp2Stream, session: Http2Session): void {
    const bytesAtStart = session.socket?.bytesRead ?? 0
    this.entries.add({stream, session, startedAt: Date.now(), bytesAtStart})
    this.sweep ??= setInterval(() => this.check(), this.limits.checkIntervalMs)
    this.sweep.unref()
  }

  private check(): void {
    const now = Date.now()
    const {limits} = this
    for (const entry of this.entries) {
      const {stream, session} = entry
      if (stream.destroyed || stream.state.state !== streamOpen) {
        this.entries.delete(entry)
        continue
      }
      const late = now - entry.startedAt - limits.bodyGraceMs
      // Data waiting to be read is the server's delay, not the client's.
      if (late <= 0 || stream.readableLength > 0) continue
      const received = (session.socket?.bytesRead ?? 0) - entry.bytesAtStart
      if (received >= (late / 1000) * limits.minBodyBytesPerSecond) continue
      this.entries.delete(entry)
      calm(
        session,
        'slow-request',
        `a request unfinished, under ${limits.minBodyBytesPerSecond} bytes/s`,
      )
    }
    if (this.entries.size === 0) {
      clearInterval(this.sweep)
      this.sweep = undefined
    }
  }
}
