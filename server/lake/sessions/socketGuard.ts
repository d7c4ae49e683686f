import type {WebSocket} from 'ws'

/**
 * How long a socket may stay open without a valid `authorization` message. The Studio sends it
 * first thing after the handshake, so 10 s is ample; an idle anonymous socket is only a cost.
 */
export const socketAuthTimeoutMs = 10_000

/**
 * Ping interval: a socket that has not answered the previous ping by the next one is
 * terminated (its peer vanished without a close: sleep, network change, a half-open attack).
 * The same tick re-verifies each socket's session, so a revoked one is closed within it.
 */
export const socketHeartbeatMs = 30_000

/**
 * Concurrent presence sockets per client key. The Studio opens one per tab: 16 tabs of one
 * owner behind one address pass, a flood from one address does not.
 */
export const maxSocketsPerClient = 16

/** WebSocket close code for an authorization that never came, failed, or ended. */
export const closeUnauthorized = 4001

export interface SocketGuardOptions {
  authTimeoutMs?: number
  heartbeatMs?: number
  maxPerClient?: number
}

interface Watched {
  client: string
  alive: boolean
  deadline?: NodeJS.Timeout
}

/**
 * The bounds every presence socket lives under: a per-client cap, a deadline to authorize, and
 * ping/pong liveness (the heartbeat pattern from the `ws` README).
 */
export class SocketGuard {
  private readonly perClient = new Map<string, number>()
  private readonly watched = new Map<WebSocket, Watched>()
  private readonly authTimeoutMs: number
  private readonly maxPerClient: number
  private readonly timer: NodeJS.Timeout

  /** `onTick` runs on every heartbeat, after the pings: the hub re-verifies sessions there. */
  constructor(options: SocketGuardOptions, onTick: () => void) {
    this.authTimeoutMs = options.authTimeoutMs ?? socketAuthTimeoutMs
    this.maxPerClient = options.maxPerClient ?? maxSocketsPerClient
    this.timer = setInterval(() => {
      this.beat()
      onTick()
    }, options.heartbeatMs ?? socketHeartbeatMs)
    this.timer.unref()
  }

  /** Whether `client` may open one more socket. */
  admits(client: string): boolean {
    return (this.perClient.get(client) ?? 0) < this.maxPerClient
  }

  /** Counts an accepted socket and starts its authorization deadline. */
  watch(ws: WebSocket, client: string): void {
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1)
    const entry: Watched = {client, alive: true}
    entry.deadline = setTimeout(() => {
      ws.close(closeUnauthorized, 'Authorization timeout')
    }, this.authTimeoutMs)
    this.watched.set(ws, entry)
    ws.on('pong', () => {
      entry.alive = true
    })
    ws.once('close', () => this.forget(ws))
  }

  /** The socket authorized in time: its deadline no longer applies. */
  authorized(ws: WebSocket): void {
    const entry = this.watched.get(ws)
    if (entry?.deadline) clearTimeout(entry.deadline)
    if (entry) entry.deadline = undefined
  }

  private forget(ws: WebSocket): void {
    const entry = this.watched.get(ws)
    if (!entry) return
    this.watched.delete(ws)
    if (entry.deadline) clearTimeout(entry.deadline)
    const left = (this.perClient.get(entry.client) ?? 1) - 1
    if (left > 0) this.perClient.set(entry.client, left)
    else this.perClient.delete(entry.client)
  }

  private beat(): void {
    for (const [ws, entry] of this.watched) {
      if (!entry.alive) {
        ws.terminate()
        continue
      }
      entry.alive = false
      if (ws.readyState === ws.OPEN) ws.ping()
    }
  }

  close(): void {
    clearInterval(this.timer)
    for (const [ws] of this.watched) ws.terminate()
  }
}
