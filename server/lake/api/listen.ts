import {randomBytes} from 'node:crypto'
import type {Context, Hono} from 'hono'
import {badRequest, LakeError} from '../errors.ts'
import {parseQuery} from '../groq.ts'
import {checkDataset, flag, identify, queryParams} from './http.ts'
import type {Lake} from '../lake.ts'
import {eventsFor, fromLog, matches, type Filter, type ListenOptions} from '../listenEvents.ts'
import {SseStream} from './sse.ts'
import type {CommittedTransaction} from '../types.ts'

export interface ListenConfig {
  /** Interval of `: keepalive` comments; Sanity sends one every 15 s. */
  keepAliveMs?: number
  /** A resume further behind than this many transactions gets `reset` instead of a replay. */
  maxReplay?: number
}

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

/**
 * GET /v{version}/data/listen/{dataset}: server-sent events as Sanity sends them: `welcome`,
 * then `mutation` per matching document per transaction; `welcomeback`/`reset` on resume;
 * `disconnect` when the server shuts down. Bad input is a JSON error before the stream starts.
 */
export function registerListen(
  app: Hono,
  lake: Lake,
  config: ListenConfig = {},
): {close(): void; readonly connections: number} {
  const keepAliveMs = config.keepAliveMs ?? 15_000
  const maxReplay = config.maxReplay ?? 10_000
  const streams = new Set<SseStream>()

  app.get('/:version/data/listen/:dataset', (c) => {
    checkDataset(c, lake)
    const authenticated = identify(c, lake) !== undefined
    const query = c.req.query('query')
    if (!query || query.trim() === '') throw badRequest('Missing "query" parameter')
    const params = queryParams(c)
    const filter: Filter = {
      tree: parseQuery(query, params),
      params,
      sanity: {projectId: lake.projectId, dataset: lake.dataset},
    }
    try {
      // Runtime errors (unsupported functions, bad argument types) surface here, before the stream.
      matches(filter, {_id: 'probe', _type: 'probe'})
    } catch (error) {
      throw new LakeError(400, 'queryError', error instanceof Error ? error.message : String(error))
    }
    const options: ListenOptions = {
      includeResult: flag(c, 'includeResult'),
      includePreviousRevision: flag(c, 'includePreviousRevision'),
      includeMutations: flag(c, 'includeMutations', true),
      includeAllVersions: flag(c, 'includeAllVersions'),
      effects: c.req.query('effectFormat') === 'mendoza',
      authenticated,
    }
    // Replay only on request: a plain listener that reconnects gets a fresh `welcome` (and
    // refetches), because re-applying effects it already has would corrupt its copy.
    const lastEventId =
      c.req.query('lastEventId') ??
      (flag(c, 'enableResume') ? c.req.header('last-event-id') : undefined)

    const stream = new SseStream({keepAliveMs, onClose: () => streams.delete(stream)})
    streams.add(stream)
    const send = (tx: CommittedTransaction, skip = 0) => {
      const events = eventsFor(tx, filter, options)
      events.forEach((event, index) => {
        if (index < skip) return
        const id = index === events.length - 1 ? `${tx.seq}` : `${tx.seq}:${index + 1}`
        stream.send('mutation', event, id)
      })
    }
    const deliver = (tx: CommittedTransaction, skip = 0) => {
      try {
        send(tx, skip)
      } catch (error) {
        console.warn(`[lake] listener query failed on ${tx.id}:`, error)
        stream.send('channelError', {
          message: error instanceof Error ? error.message : String(error),
        })
        stream.close()
      }
    }
    const listenerName = randomBytes(12).toString('base64url')
    // Everything below runs in one tick: a commit is either in the log we replay or delivered
    // live afterwards, never both and never neither.
    const from = lastEventId === undefined ? undefined : parseEventId(lastEventId, lake)
    if (lastEventId === undefined) stream.send('welcome', {listenerName}, `${lake.revision}`)
    else if (!from || lake.revision - from.seq > maxReplay) stream.send('reset', {listenerName})
    else {
      stream.send('welcomeback', {listenerName})
      let cursor = from.seq
      let skip = from.skip
      for (
        let page = lake.store.transactionsSince(cursor, 500);
        page.length > 0;
        page = lake.store.transactionsSince(cursor, 500)
      ) {
        for (const stored of page) {
          deliver(fromLog(lake.store, stored), skip)
          skip = 0
          cursor = stored.seq
        }
      }
    }
    stream.onClose(lake.onCommit((tx) => deliver(tx)))
    return stream.response()
  })

  return {
    /** Open streams (tests check that a client's disconnect releases its stream). */
    get connections() {
      return streams.size
    },
    close() {
      for (const stream of [...streams]) {
        stream.send('disconnect', {reason: 'The server is shutting down'})
        stream.close()
      }
    },
  }
}
