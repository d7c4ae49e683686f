import {createHash} from 'node:crypto'
import type {Context} from 'hono'
import type {Lake} from '../lake.ts'
import {ClientCounter, overCap} from './clientCaps.ts'
import {LakeError} from '../errors.ts'
import {reconnectDelayMs, SseStream} from './sse.ts'
import {authOf} from '../lake.ts'

/**
 * Open streams per anonymous client: the site itself opens none, and a visitor's tool rarely
 * needs more than a couple. Over it: 429.
 */
export const maxAnonymousStreams = 8
/** Open streams per owner token or Studio session: the Studio holds up to 8 per tab. */
export const maxOwnerStreams = 32

/**
 * Visitors' streams in all when the wiring says nothing (routes mounted alone, in tests): half
 * of the listener's default 1,024 connections. The server passes half its own listener.
 */
export const defaultMaxAnonymousStreamsInAll = 512

/** A visitor refused for streams in all may try again soon: streams end as visitors leave. */
const streamsFullRetrySeconds = 10

/**
 * What open streams hold, shared by the listen and live-events endpoints so their caps bound
 * both: a count per caller, and visitors' streams in all. Each visitor's stream holds a
 * connection for as long as it lasts, so without a cap in all 1,024 addresses holding one each
 * filled the listener and a newcomer's connection was closed at once (security review 3, L5).
 * The wiring passes half the listener (server/http/limits.ts), leaving the other half to pages.
 */
export class StreamSlots {
  readonly perCaller = new ClientCounter()
  readonly anonymous = new ClientCounter()
  readonly maxAnonymous: number

  constructor(maxAnonymous = defaultMaxAnonymousStreamsInAll) {
    this.maxAnonymous = maxAnonymous
  }
}

/**
 * The long-lived streams of one endpoint (listen, live events): each holds a slot under its
 * caller's cap (the owner's per token, a visitor's per address and all visitors' together;
 * `slots` are shared between endpoints so the caps bound them together), re-checks its token
 * before each event and keep-alive, ends at once when its session does, and at shutdown just
 * ends: never `disconnect`, after which @sanity/client gives up for good (Sanity sends it only
 * for permanent conditions); EventSource reconnects by itself, with Last-Event-ID, to whichever
 * process serves the lake next.
 */
export class OpenStreams {
  /** Open streams, each with the check that its caller may still listen. */
  private readonly streams = new Map<SseStream, () => boolean>()
  private readonly unsubscribe: () => void
  private readonly lake: Lake
  private readonly keepAliveMs: number
  private readonly slots: StreamSlots
  private closing = false

  constructor(lake: Lake, keepAliveMs: number, slots = new StreamSlots()) {
    this.lake = lake
    this.keepAliveMs = keepAliveMs
    this.slots = slots
    // A logout, expiry or token rotation ends the streams it concerns at once.
    this.unsubscribe = authOf(lake).onSessionEnd(() => {
      for (const [stream, stillAllowed] of [...this.streams]) if (!stillAllowed()) stream.close()
    })
  }

  /** Takes the caller's slot, or throws the 429 (`kind` names the refusal in the log). */
  reserve(c: Context, client: string, token: string | undefined, kind: string, what: string) {
    const capKey = token ? `token ${createHash('sha256').update(token).digest('hex')}` : client
    const max = token ? maxOwnerStreams : maxAnonymousStreams
    const release = this.slots.perCaller.acquire(capKey, max)
    if (!release) throw overCap(c, client, kind, `More than ${max} open ${what}`)
    if (token) return release
    const inAll = this.slots.anonymous.acquire('*', this.slots.maxAnonymous)
    if (inAll)
      return () => {
        inAll()
        release()
      }
    release()
    c.header('retry-after', String(streamsFullRetrySeconds))
    throw new LakeError(
      503,
      'serviceUnavailable',
      `${this.slots.maxAnonymous} anonymous streams are open; retry in ${streamsFullRetrySeconds} s`,
    )
  }

  /** Opens the stream for a reserved slot; closing it frees the slot. */
  open(token: string | undefined, release: () => void) {
    // Re-checks do not count as use: an open stream alone must not keep a session from idling out.
    const stillAllowed = () =>
      token === undefined || authOf(this.lake).verify(token, {touch: false}) !== undefined
    const stream = new SseStream({
      keepAliveMs: this.keepAliveMs,
      stillWanted: stillAllowed,
      onClose: () => {
        this.streams.delete(stream)
        release()
      },
    })
    this.streams.set(stream, stillAllowed)
    if (this.closing) {
      // A reconnect that reached this process while it stops (a kept-alive connection): ended at
      // once, as the others were, so EventSource tries again, soon, at whichever process serves
      // the lake next; a `welcome` from here would be a stream that ends within seconds.
      stream.retry(reconnectDelayMs)
      stream.close()
    }
    return {stream, stillAllowed}
  }

  get size(): number {
    return this.streams.size
  }

  close(): void {
    this.closing = true
    this.unsubscribe()
    for (const stream of [...this.streams.keys()]) stream.close()
  }
}
