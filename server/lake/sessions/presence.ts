import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import {WebSocketServer, type RawData, type WebSocket} from 'ws'
import {clientOfRequest, type TrustProxy} from '../../http/clientAddress.ts'
import {refusals, safe} from '../../http/log.ts'
import {bearerToken, type TokenVerdict} from '../auth.ts'
import type {Lake} from '../lake.ts'
import {closeUnauthorized, SocketGuard, type SocketGuardOptions} from './socketGuard.ts'
import {parseRpc, tooManyAttemptsCode, unauthorizedCode} from './presenceRpc.ts'
import {refuseUpgrade, upgradeRefusal} from './socketUpgrade.ts'
import {messageOf} from '../../util/messageOf.ts'
import {authOf} from '../lake.ts'

/** `/v2022-06-30/socket/{dataset}`: Sanity's "bifur" socket, which the Studio uses for presence. */
const socketPath = /^\/v[^/]+\/socket\/([^/?]+)/

/** Largest message a socket may send: presence messages are a few hundred bytes. */
const maxPayloadBytes = 256 * 1024

interface Connection {
  ws: WebSocket
  /** `clientOfRequest(…).key` of the upgrade: throttles and logs key on it. */
  client: string
  userId?: string
  /** The token it authorized with, re-verified before each message sent and on each heartbeat. */
  token?: string
  /** Presence subscription id the client listens on (`presence_subscription` messages). */
  subscription?: string
  /** Studio sessions announced over this connection, to disconnect when it closes. */
  sessions: Set<string>
}

export interface PresenceOptions extends SocketGuardOptions {
  allowOrigin: (origin: string | undefined) => boolean
  /** Who the client of an upgrade is (server/http/clientAddress.ts). */
  trustProxy?: TrustProxy
}

/**
 * Presence between Studio sessions over JSON-RPC 2.0 (docs/studio-protocol.md §b #9, @sanity/bifur-client):
 * `authorization` with the bearer token first, then `presence_subscribe`, and `presence_announce`
 * / `presence_rollcall` / `presence_disconnect`, each broadcast to the other connections' presence
 * subscriptions as `{type, i: userId, m|session}`. Sockets live under SocketGuard's bounds, and
 * one whose session ends (logout, expiry) is closed.
 */
export class PresenceHub {
  private readonly wss = new WebSocketServer({noServer: true, maxPayload: maxPayloadBytes})
  private readonly connections = new Set<Connection>()
  /**
   * The connection that last announced each Studio session. A reloaded tab keeps its session id
   * and announces it on a new socket, while its old socket's close (or explicit disconnect) may
   * reach us only afterwards: that late goodbye must not make the others drop a live session.
   */
  private readonly owners = new Map<string, Connection>()
  private readonly lake: Lake
  private readonly options: PresenceOptions
  private readonly guard: SocketGuard
  private readonly unsubscribe: () => void

  constructor(lake: Lake, options: PresenceOptions) {
    this.lake = lake
    this.options = options
    this.guard = new SocketGuard(options, () => this.recheck())
    this.unsubscribe = authOf(lake).onSessionEnd(() => this.recheck())
  }

  /**
   * Takes the upgrade if the path is the socket's. Never throws: anything malformed is a 4xx
   * written to the socket and one (summarised) log line, because an exception here would
   * escape the server's 'upgrade' event and end the process.
   */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const match = socketPath.exec(request.url ?? '')
    if (!match) return false
    let client = 'unknown'
    try {
      client = clientOfRequest(request, this.options.trustProxy ?? 'none').key
      const refusal = upgradeRefusal(request, match[1], {
        allowOrigin: this.options.allowOrigin,
        dataset: this.lake.dataset,
        admits: () => this.guard.admits(client),
      })
      if (refusal) {
        const {status, why, headers} = refusal
        refusals.refuse(
          client,
          `socket-${status}`,
          `[presence] ${status} for socket ${safe(request.url)} from ${client}: ${why}`,
        )
        refuseUpgrade(socket, status, headers)
        return true
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, client))
    } catch (error) {
      const why = messageOf(error)
      refusals.refuse(
        client,
        'socket-400',
        `[presence] 400 for socket ${safe(request.url)} from ${client}: ${safe(why)}`,
      )
      refuseUpgrade(socket, 400)
    }
    return true
  }

  private accept(ws: WebSocket, client: string): void {
    const connection: Connection = {ws, client, sessions: new Set()}
    this.connections.add(connection)
    this.guard.watch(ws, client)
    ws.on('message', (data) => {
      try {
        this.receive(connection, data)
      } catch (error) {
        // A handler bug must cost this socket, never the process.
        console.error('[presence] message handler failed', error)
        ws.terminate()
      }
    })
    ws.on('close', () => {
      this.connections.delete(connection)
      for (const session of connection.sessions) this.leave(connection, session)
    })
    ws.on('error', (error) => console.warn('[presence] socket error', safe(error.message)))
  }

  /**
   * Sends to a connection whose token is still valid; closes one whose session ended. Before
   * authorization only error replies go out, and there is nothing to re-verify.
   */
  private send(connection: Connection, message: unknown): void {
    if (!this.stillAuthorized(connection)) return
    if (connection.ws.readyState === connection.ws.OPEN) connection.ws.send(JSON.stringify(message))
  }

  private stillAuthorized(connection: Connection): boolean {
    if (connection.token === undefined) return true
    // A passive check: sending to an open tab is not the owner using the session.
    if (authOf(this.lake).verify(connection.token, {touch: false})) return true
    connection.token = undefined
    connection.userId = undefined
    connection.subscription = undefined
    connection.ws.close(closeUnauthorized, 'Session ended')
    return false
  }

  /** Re-verifies every authorized socket (on each heartbeat, and when a session is revoked). */
  private recheck(): void {
    for (const connection of this.connections) this.stillAuthorized(connection)
  }

  private receive(connection: Connection, data: RawData): void {
    const message = parseRpc(data)
    if (!message) {
      this.send(connection, {
        jsonrpc: '2.0',
        id: null,
        error: {code: -32700, message: 'Parse error'},
      })
      return
    }
    const {id, method, params} = message
    const reply = (result: unknown) => this.send(connection, {jsonrpc: '2.0', id, result})
    const fail = (code: number, text: string) =>
      this.send(connection, {jsonrpc: '2.0', id, error: {code, message: text}})
    if (method === 'authorization') return this.authorize(connection, params, reply, fail)
    // Each message is a use of the session: it must still be valid (and its last use is noted).
    if (connection.token !== undefined && !authOf(this.lake).verify(connection.token)) {
      this.stillAuthorized(connection)
      return
    }
    if (!connection.userId)
      return fail(unauthorizedCode, 'Unauthorized: send "authorization" first')
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

  /** `authorization`: a bearer token, checked and throttled like any other (server/lake/auth.ts). */
  private authorize(
    connection: Connection,
    params: Record<string, unknown>,
    reply: (result: unknown) => void,
    fail: (code: number, text: string) => void,
  ): void {
    const token = bearerToken(
      typeof params.authorization === 'string' ? params.authorization : undefined,
    )
    if (token === undefined) return fail(unauthorizedCode, 'Unauthorized')
    const {client} = connection
    // A throttled client's token is checked at its pace (Auth.paced), or not at all.
    const auth = authOf(this.lake)
    auth
      .paced(client, () => auth.verify(token, {touch: false}) !== undefined)
      .then((compare) => {
        const verdict = compare ? auth.authenticate(token, client) : auth.throttledVerdict(client)
        this.authorized(connection, token, verdict, reply, fail)
      })
      .catch((error: unknown) => {
        console.error('[presence] authorization failed', error)
        connection.ws.terminate()
      })
  }

  private authorized(
    connection: Connection,
    token: string,
    verdict: TokenVerdict,
    reply: (result: unknown) => void,
    fail: (code: number, text: string) => void,
  ): void {
    const {client} = connection
    if (verdict.ok) {
      connection.userId = verdict.identity.userId
      connection.token = token
      this.guard.authorized(connection.ws)
      return reply(true)
    }
    if (verdict.throttled) {
      refusals.refuse(
        client,
        'token-throttled',
        `[presence] ${client} throttled: too many wrong tokens`,
      )
      fail(
        tooManyAttemptsCode,
        `Too many failed token attempts; retry in ${verdict.retryAfterSeconds} s`,
      )
      connection.ws.close(closeUnauthorized, 'Too many failed token attempts')
      return
    }
    refusals.refuse(client, 'token-invalid', `[presence] ${client} sent a wrong or expired token`)
    return fail(unauthorizedCode, 'Unauthorized')
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
      this.send(other, {
        jsonrpc: '2.0',
        method: 'presence_subscription',
        params: {subscription: other.subscription, result: event},
      })
    }
  }

  close(): void {
    this.unsubscribe()
    // ws 8's server close leaves open sockets be: a graceful stop ends them (1001 Going Away),
    // before the guard terminates whatever it watches.
    for (const connection of this.connections) connection.ws.close(1001, 'Server shutting down')
    this.guard.close()
    this.connections.clear()
    this.owners.clear()
    this.wss.close()
  }
}
