import {createHash, randomBytes} from 'node:crypto'
import type {Context, Hono} from 'hono'
import {bearerToken} from '../auth.ts'
import {badRequest, LakeError} from '../errors.ts'
import {checkDataset, flag, identify, queryParams} from './http.ts'
import type {Lake} from '../lake.ts'
import type {Filter, ListenOptions} from '../listenEvents.ts'
import {listenFilterTimeoutMs, type Lane} from '../queryPool/queryBudgets.ts'
import {SseStream} from './sse.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {ClientCounter, overCap} from './clientCaps.ts'
import {ListenDelivery} from './listenDelivery.ts'

export interface ListenConfig {
  /** Interval of `: keepalive` comments; Sanity sends one every 15 s. */
  keepAliveMs?: number
  /** A resume further behind than this many transactions gets `reset` instead of a replay. */
  maxReplay?: number
  /** Open streams per client, shared with the live-events stream so the caps bound both. */
  held?: ClientCounter
}

/**
 * Open streams per anonymous client: the site itself opens none, and a visitor's tool rarely
 * needs more than a couple. Over it: 429.
 */
export const maxAnonymousStreams = 8
/** Open streams per owner token or Studio session: the Studio holds up to 8 per tab. */
export const maxOwnerStreams = 32
/** A resume that has not caught up within this long gets `reset` (refetch) instead. */
export const maxReplayMs = 10_000

/**
 * Where a resuming client left off: SSE ids are `<seq>` after a transaction's last event and
 * `<seq>:<n>` after its n-th, so a client cut off mid-transaction gets the rest of it.
 */
function parseEventId(id: string, lake: Lake): {seq: number; skip: number} | undefined {
  const match = /^(\d+)(?::(\d+))?$/.exec(id)
  if (match) {
    const seq = Number(match[1])
    if (seq > lake.revision) return undefined
    return match[2] === undefined ? {seq, skip: 0} : {seq: seq - 1, skip: Number(match[2])}
  }
  const tx = lake.store.transactionById(id)
  return tx ? {seq: tx.seq, skip: 0} : undefined
}

/** Checks the filter at open, on the pool within its budget: a bad or costly one is a 4xx. */
async function probe(lake: Lake, filter: Filter, lane: Lane, client: string): Promise<void> {
  const timeoutMs = listenFilterTimeoutMs[lane]
  try {
    await lake.matchFilter(filter, [{_id: 'probe', _type: 'probe'}], {lane, client, timeoutMs})
  } catch (error) {
    if (error instanceof LakeError && error.type === 'queryTimeout') {
      throw new LakeError(
        400,
        'queryTimeout',
        `The listen filter took longer than ${timeoutMs} ms on a single document and was refused; simplify it`,
      )
    }
    throw error
  }
}

function listenOptions(c: Context, authenticated: boolean): ListenOptions {
  return {
    includeResult: flag(c, 'includeResult'),
    includePreviousRevision: flag(c, 'includePreviousRevision'),
    includeMutations: flag(c, 'includeMutations', true),
    includeAllVersions: flag(c, 'includeAllVersions'),
    effects: c.req.query('effectFormat') === 'mendoza',
    authenticated,
  }
}

/**
 * GET /v{version}/data/listen/{dataset}: server-sent events as Sanity sends them: `welcome`,
 * then `mutation` per matching document per transaction; `welcomeback`/`reset` on resume;
 * `disconnect` when the server shuts down. Bad input is a JSON error before the stream starts.
 * Filters run on the query pool (never on the main thread), and a stream whose token stops
 * being valid (logout, expiry, rotation) ends at its next event or keep-alive.
 */
export function registerListen(
  app: Hono,
  lake: Lake,
  config: ListenConfig = {},
): {close(): void; readonly connections: number} {
  const keepAliveMs = config.keepAliveMs ?? 15_000
  const maxReplay = config.maxReplay ?? 10_000
  /** Open streams, each with the check that its caller may still listen. */
  const streams = new Map<SseStream, () => boolean>()
  const held = config.held ?? new ClientCounter()
  // A logout, expiry or token rotation ends the streams it concerns at once, not at their next
  // event or keep-alive.
  const unsubscribe = lake.auth.onSessionEnd(() => {
    for (const [stream, stillAllowed] of [...streams]) if (!stillAllowed()) stream.close()
  })

  app.get('/:version/data/listen/:dataset', async (c) => {
    checkDataset(c, lake)
    const authenticated = identify(c, lake) !== undefined
    const token = authenticated ? bearerToken(c.req.header('authorization')) : undefined
    const query = c.req.query('query')
    if (!query || query.trim() === '') throw badRequest('Missing "query" parameter')
    const filter: Filter = {query, params: queryParams(c)}
    const client = clientOf(c).key
    const lane: Lane = authenticated ? 'trusted' : 'anonymous'
    // The owner's cap is per token (each Studio session), a visitor's per address.
    const capKey = token ? `token ${createHash('sha256').update(token).digest('hex')}` : client
    const max = token ? maxOwnerStreams : maxAnonymousStreams
    const release = held.acquire(capKey, max)
    if (!release) throw overCap(c, client, 'listen-cap', `More than ${max} open listen streams`)
    try {
      await probe(lake, filter, lane, client)
    } catch (error) {
      release()
      throw error
    }
    // Re-checks do not count as use: an open stream alone must not keep a session from idling out.
    const stillAllowed = () =>
      token === undefined || lake.auth.verify(token, {touch: false}) !== undefined
    const stream = new SseStream({
      keepAliveMs,
      stillWanted: stillAllowed,
      onClose: () => {
        streams.delete(stream)
        release()
      },
    })
    streams.set(stream, stillAllowed)
    const delivery = new ListenDelivery(lake, {
      stream,
      filter,
      options: listenOptions(c, authenticated),
      lane,
      client,
      filterTimeoutMs: listenFilterTimeoutMs[lane],
      stillAllowed,
    })
    // Replay only on request: a plain listener that reconnects gets a fresh `welcome` (and
    // refetches), because re-applying effects it already has would corrupt its copy.
    const lastEventId =
      c.req.query('lastEventId') ??
      (flag(c, 'enableResume') ? c.req.header('last-event-id') : undefined)
    const listenerName = randomBytes(12).toString('base64url')
    // Everything below runs in one tick: a commit is either in the log we replay (up to
    // `revision`) or delivered live afterwards, never both and never neither.
    const revision = lake.revision
    const from = lastEventId === undefined ? undefined : parseEventId(lastEventId, lake)
    if (lastEventId === undefined) stream.send('welcome', {listenerName}, `${revision}`)
    else if (!from || revision - from.seq > maxReplay) stream.send('reset', {listenerName})
    else {
      stream.send('welcomeback', {listenerName})
      delivery.replay(from.seq, revision, from.skip, Date.now() + maxReplayMs)
    }
    stream.onClose(lake.onCommit((tx) => delivery.push(tx)))
    return stream.response()
  })

  return {
    /** Open streams (tests check that a client's disconnect releases its stream). */
    get connections() {
      return streams.size
    },
    close() {
      unsubscribe()
      for (const stream of [...streams.keys()]) {
        stream.send('disconnect', {reason: 'The server is shutting down'})
        stream.close()
      }
    },
  }
}
