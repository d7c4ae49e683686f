import {randomBytes} from 'node:crypto'
import type {Context, Hono} from 'hono'
import {bearerToken} from '../auth.ts'
import {badRequest, LakeError} from '../errors.ts'
import {checkDataset, flag, identify, queryParams} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import type {Filter, ListenOptions} from '../events/listenEvents.ts'
import {listenPerspective} from '../events/listenPerspective.ts'
import {listenFilterTimeoutMs, type Lane} from '../queryPool/queryBudgets.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {OpenStreams, type StreamSlots} from './openStreams.ts'
import {ListenDelivery} from './listenDelivery.ts'
import {storeOf} from '../lake.ts'
import {reconnectDelayMs} from './sse.ts'

export interface ListenConfig {
  /** Interval of `: keepalive` comments; Sanity sends one every 15 s. */
  keepAliveMs?: number
  /** A resume further behind than this many transactions gets `reset` instead of a replay. */
  maxReplay?: number
  /** What open streams hold (per caller and visitors' in all), shared with the other stream endpoint. */
  slots?: StreamSlots
}

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
  const tx = storeOf(lake).transactionById(id)
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
  const perspective = listenPerspective(c.req.query('perspective'))
  if (!perspective.ok)
    throw badRequest(
      '"perspective" must be raw, published, drafts, or a comma list of release ids and drafts',
    )
  return {
    // Only the owner reads drafts and versions: anyone else listens to the published documents.
    perspective: authenticated || !perspective.stack ? perspective.stack : [],
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
 * then `mutation` per matching document per transaction; `welcomeback`/`reset` on resume. At
 * shutdown the stream just ends, without `disconnect` (on which @sanity/client stops for good):
 * `retry:` first tells EventSource to reconnect after half a second, and the client's listener
 * gets a fresh `welcome` from whichever process serves the lake next. Bad input is a JSON error before the stream starts.
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
  const streams = new OpenStreams(lake, keepAliveMs, config.slots)

  app.get('/:version/data/listen/:dataset', async (c) => {
    checkDataset(c, lake)
    const identity = identify(c, lake)
    // A preview session listens as a visitor: it exists for the site's drafts, not the Studio's.
    const authenticated = identity !== undefined && !identity.preview
    const token = identity ? bearerToken(c.req.header('authorization')) : undefined
    const query = c.req.query('query')
    if (!query || query.trim() === '') throw badRequest('Missing "query" parameter')
    const filter: Filter = {query, params: queryParams(c)}
    const options = listenOptions(c, authenticated)
    const client = clientOf(c).key
    const lane: Lane = authenticated ? 'trusted' : 'anonymous'
    const release = streams.reserve(c, client, token, 'listen-cap', 'listen streams')
    try {
      await probe(lake, filter, lane, client)
    } catch (error) {
      release()
      throw error
    }
    const {stream, stillAllowed} = streams.open(token, release)
    const delivery = new ListenDelivery(lake, {
      stream,
      filter,
      options,
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
    stream.retry(reconnectDelayMs)
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
    close: () => streams.close(),
  }
}
