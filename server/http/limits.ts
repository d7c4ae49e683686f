import type {Server, ServerOptions} from 'node:http'
import type {Http2SecureServer, SecureServerOptions} from 'node:http2'
import {maxConnectionsPerClient} from './connections.ts'
import {guardHttp2Sessions} from './http2Abuse.ts'

/**
 * How long and how much one connection may take from the two listeners, so that many slow or
 * idle connections (slowloris) cannot stall honest visitors. Long-lived answers stay possible:
 * the request timeouts end once a request has arrived, listen streams send a keepalive every
 * 15 s (server/lake/api/listen.ts), well inside the idle timeout, and WebSocket upgrades leave the
 * HTTP server's timers behind (ws clears the socket timeout).
 */
export interface EdgeLimits {
  /** All of a request's headers must arrive within this. */
  headersTimeoutMs: number
  /** ... and its whole body within this (the largest body is a 25 MB image upload). */
  requestTimeoutMs: number
  /** How often Node checks the two timeouts above; it bounds their precision. */
  checkIntervalMs: number
  /** An idle keep-alive connection between two requests is closed after this. */
  keepAliveTimeoutMs: number
  /** A socket with no traffic at all for this long is closed (listen keepalives are 15 s). */
  idleSocketTimeoutMs: number
  /**
   * Open connections per listener, shared fairly among addresses (server/http/connections.ts):
   * when full, a newcomer takes the place of the oldest connection of the largest holder.
   */
  maxConnections: number
  /** ... and per client address. */
  maxConnectionsPerClient: number
  /** A request body may take this long before its pace is checked (server/http/slowBodies.ts). */
  bodyGraceMs: number
  /** ... then it must keep up this average rate, or it gets 408 and its connection closes. */
  minBodyBytesPerSecond: number
  /** An HTTP/2 session with no frames for this long is closed. */
  http2SessionIdleMs: number
  /** Concurrent streams one HTTP/2 session may open (Node's default is unlimited). */
  http2MaxConcurrentStreams: number
  /** Memory one HTTP/2 session may hold in nghttp2's buffers, in MB (Node's default is 10). */
  http2MaxSessionMemoryMb: number
  /** A TLS handshake must finish within this (Node's default is 120 s). */
  tlsHandshakeTimeoutMs: number
  /**
   * Frames one HTTP/2 session may send per window before it is closed with ENHANCE_YOUR_CALM
   * (server/http/http2Abuse.ts): stream resets (rapid reset), SETTINGS and PING frames.
   */
  http2FloodWindowMs: number
  http2MaxResets: number
  http2MaxSettings: number
  http2MaxPings: number
  /** Invalid frames and streams refused for over the stream cap, before Node closes a session. */
  http2MaxInvalidFrames: number
  http2MaxRejectedStreams: number
}

export const edgeLimits: EdgeLimits = {
  // Browsers send all headers in one packet; 10 s is generous for a slow mobile link.
  headersTimeoutMs: 10_000,
  // 25 MB at 2 Mbit/s takes 100 s: the owner's largest upload over a poor connection.
  requestTimeoutMs: 120_000,
  checkIntervalMs: 1_000,
  // Node's default; browsers reuse a connection within it for a page's assets.
  keepAliveTimeoutMs: 5_000,
  // Four missed listen keepalives (15 s each): a stream this quiet has lost its peer.
  idleSocketTimeoutMs: 60_000,
  // Far above one owner plus visitors (a browser opens ≤ 6 connections per origin), and each
  // costs a few kB: 1024 stay well inside the process's memory and file-descriptor limits.
  maxConnections: 1024,
  maxConnectionsPerClient,
  // A phone on a poor uplink sends tens of kB/s; one byte every few seconds is an attack.
  bodyGraceMs: 10_000,
  minBodyBytesPerSecond: 8 * 1024,
  // Same reasoning as the idle socket timeout: the Studio's listen streams keep it busy.
  http2SessionIdleMs: 60_000,
  // The Studio holds up to 8 listen streams per tab plus a burst of queries and assets.
  http2MaxConcurrentStreams: 128,
  http2MaxSessionMemoryMb: 10,
  tlsHandshakeTimeoutMs: 10_000,
  // A browser resets a stream per abandoned request and sends one or two SETTINGS and a rare
  // PING per session; an attack sends thousands a second.
  http2FloodWindowMs: 10_000,
  http2MaxResets: 200,
  http2MaxSettings: 20,
  http2MaxPings: 50,
  // Node's defaults are 1000 and 100.
  http2MaxInvalidFrames: 100,
  http2MaxRejectedStreams: 100,
}

/**
 * Visitors' long-lived streams (listen, live events) open in all: half a listener, so that
 * however many addresses hold one, the other half is left for pages (security review 3, L5).
 */
export function anonymousStreamsInAll(limits: EdgeLimits): number {
  return Math.floor(limits.maxConnections / 2)
}

/** Node's largest request head (request line plus headers). Its default, 16 KiB, would leave a
 * 14,800-character listen URL (the spec's longest GET) under 1.6 KB for every other header. */
export const maxHeaderBytes = 24 * 1024

/** Options for node:http's createServer (the plain listener). */
export function http1Options(limits: EdgeLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: maxHeaderBytes,
  }
}

/** Options for node:http2's createSecureServer (the Studio's listener, HTTP/1.1 allowed too). */
export function http2Options(limits: EdgeLimits): SecureServerOptions & ServerOptions {
  return {
    ...http1Options(limits),
    maxSessionMemory: limits.http2MaxSessionMemoryMb,
    peerMaxConcurrentStreams: limits.http2MaxConcurrentStreams,
    settings: {maxConcurrentStreams: limits.http2MaxConcurrentStreams},
    handshakeTimeout: limits.tlsHandshakeTimeoutMs,
    maxSessionInvalidFrames: limits.http2MaxInvalidFrames,
    maxSessionRejectedStreams: limits.http2MaxRejectedStreams,
  }
}

/** The limits that are properties rather than constructor options. */
export function applyLimits(server: Server | Http2SecureServer, limits: EdgeLimits): void {
  server.setTimeout(limits.idleSocketTimeoutMs)
  // The fair share (server/http/connections.ts) enforces `maxConnections` and must see the
  // newcomer to make room for it; Node's own cap is a backstop above it, which also bounds a
  // trusted proxy's connections (not counted in the share).
  server.maxConnections = 2 * limits.maxConnections
}

/**
 * HTTP/2 sessions that stay silent are closed (their open streams may finish first); sessions
 * that flood frames or hold unfinished requests are closed at once (server/http/http2Abuse.ts).
 */
export function applySessionLimits(server: Http2SecureServer, limits: EdgeLimits): void {
  server.on('session', (session) => {
    session.setTimeout(limits.http2SessionIdleMs, () => session.close())
  })
  guardHttp2Sessions(server, {
    windowMs: limits.http2FloodWindowMs,
    maxResets: limits.http2MaxResets,
    maxSettings: limits.http2MaxSettings,
    maxPings: limits.http2MaxPings,
    bodyGraceMs: limits.bodyGraceMs,
    minBodyBytesPerSecond: limits.minBodyBytesPerSecond,
    checkIntervalMs: limits.checkIntervalMs,
  })
}
