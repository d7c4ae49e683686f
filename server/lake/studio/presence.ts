import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import {WebSocketServer, type RawData, type WebSocket} from 'ws'
import {bearerToken} from '../auth.ts'
import type {Lake} from '../lake.ts'

/** `/v2022-06-30/socket/{dataset}`: Sanity's "bifur" socket, which the Studio uses for presence. */
const socketPath = /^\/v[^/]+\/socket\/([^/?]+)/

interface Connection {
  ws: WebSocket
  userId?: string
  /** Presence subscription id the client listens on (`presence_subscription` messages). */
  subscription?: string
  /** Studio sessions announced over this connection, to disconnect when it closes. */
  sessions: Set<string>
}

type Rpc = {jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown>}

const send = (ws: WebSocket, message: unknown) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
}

/**
 * Presence between Studio sessions over JSON-RPC 2.0 (studio-api.md §b #9, @sanity/bifur-client):
 * `authorization` with the bearer token first, then `presence_subscribe`, and `presence_announce`
 * / `presence_rollcall` / `presence_disconnect`, each broadcast to the other connections' presence
 * subscriptions as `{type, i: userId, m|session}`.
 */
export class PresenceHub {
  private readonly wss = new WebSocketServer({noServer: true, maxPayload: 256 * 1024})
  private readonly connections = new Set<Connection>()
  /**
   * The connection that last announced each Studio session. A reloaded tab keeps its session id
   * and announces it on a new socket, while its old socket's close (or explicit disconnect) may
   * reach us only afterwards: that late goodbye must not make the others drop a live session.
   */
  private readonly owners = new Map<string, Connection>()
  private readonly lake: Lake
  private readonly allowOrigin: (origin: string | undefined) => boolean
  private readonly pinger: NodeJS.Timeout

  constructor(lake: Lake, allowOrigin: (origin: string | undefined) => boolean) {
    this.lake = lake
    this.allowOrigin = allowOrigin
    // Ping frames find connections whose peer vanished without a close.
    this.pinger = setInterval(() => {
      for (const {ws} of this.connections) ws.ping()
    }, 30_000)
    this.pinger.unref()
  }

  /** Takes the upgrade if the path is the socket's; refuses foreign origins and other datasets. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const match = socketPath.exec(request.url ?? '')
    if (!match) return false
    const origin = request.headers.origin
    if (
      decodeURIComponent(match[1]) !== this.lake.dataset ||
      (origin !== undefined && !this.allowOrigin(origin))
    ) {
      console.warn(`[presence] refused socket for ${request.url} from origin ${origin ?? '(none)'}`)
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      return true
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws))
    return true
  }

  private accept(ws: WebSocket): void {
    const connection: Connection = {ws, sessions: new Set()}
    this.connections.add(connection)
    ws.on('message', (data) => this.receive(connection, data))
    ws.on('close', () => {
      this.connections.delete(connection)
      for (const session of connection.sessions) this.leave(connection, session)
    })
    ws.on('error', (error) => console.warn('[presence] socket error', error.message))
  }

  private receive(connection: Connection, data: RawData): void {
    let message: Rpc
    try {
      message = JSON.parse(data.toString()) as Rpc
    } catch {
      send(connection.ws, {jsonrpc: '2.0', id: null, error: {code: -32700, message: 'Parse error'}})
      return
    }
    const {id, method, params = {}} = message
    const reply = (result: unknown) => send(connection.ws, {jsonrpc: '2.0', id, result})
    const fail = (code: number, text: string) =>
      send(connection.ws, {jsonrpc: '2.0', id, error: {code, message: text}})
    if (method === 'authorization') {
      const token = bearerToken(
        typeof params.authorization === 'string' ? params.authorization : undefined,
      )
      const identity = this.lake.auth.verify(token)
      if (!identity) return fail(4001, 'Unauthorized')
      connection.userId = identity.userId
      return reply(true)
    }
    if (!connection.userId) return fail(4001, 'Unauthorized: send "authorization" first')
    const session = (key: string) =>
      typeof params[key] === 'string' ? (params[key] as string) : ''
    switch (method) {
      case 'presence_subscribe':
        connection.subscription = `presence-${Math.random().toString(36).slice(2)}`
        return reply(connection.subscription)
      case 'presence_unsubscribe':
        connection.subscription = undefined
        return reply(true)
      case 'presence_announce': {
        const data = (params.data ?? {}) as {sessionId?: unknown; locations?: unknown}
        if (typeof data.sessionId !== 'string' || !Array.isArray(data.locations))
          return fail(-32602, 'Invalid params')
        const previous = this.owners.get(data.sessionId)
        if (previous && previous !== connection) previous.sessions.delete(data.sessionId)
        this.owners.set(data.sessionId, connection)
        connection.sessions.add(data.sessionId)
        this.broadcast(connection, {
          type: 'state',
          i: connection.userId,
          m: {sessionId: data.sessionId, locations: data.locations},
        })
        return reply(true)
      }
      case 'presence_rollcall':
        this.broadcast(connection, {
          type: 'rollCall',
          i: connection.userId,
          session: session('session'),
        })
        return reply(true)
      case 'presence_disconnect':
        this.leave(connection, session('session'))
        return reply(true)
      default:
        return fail(-32601, `Method not found: ${String(method)}`)
    }
  }

  /** A session ends on this connection: tell the others, unless another socket has taken it over. */
  private leave(connection: Connection, session: string): void {
    connection.sessions.delete(session)
    const owner = this.owners.get(session)
    if (owner !== undefined && owner !== connection) return
    this.owners.delete(session)
    this.broadcast(connection, {type: 'disconnect', i: connection.userId, m: {session}})
  }

  /** Sends a presence event to every other authorized, subscribed connection. */
  private broadcast(from: Connection, event: Record<string, unknown>): void {
    for (const other of this.connections) {
      if (other === from || !other.subscription || !other.userId) continue
      send(other.ws, {
        jsonrpc: '2.0',
        method: 'presence_subscription',
        params: {subscription: other.subscription, result: event},
      })
    }
  }

  close(): void {
    clearInterval(this.pinger)
    for (const {ws} of this.connections) ws.terminate()
    this.connections.clear()
    this.owners.clear()
    this.wss.close()
  }
}
