import type {Context, Hono} from 'hono'
import {bearerToken} from '../auth.ts'
import {unauthorized} from '../errors.ts'
import {checkDataset, flag, identify} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import {isDraftId, isPublicId} from '../types.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {refusals, safe} from '../../http/log.ts'
import {OpenStreams, type StreamSlots} from './openStreams.ts'
import {reconnectDelayMs, type SseStream} from './sse.ts'
import {isInternal} from './internal.ts'
import {storeOf} from '../lake.ts'
import {changeTags, draftsTag} from '../events/syncTags.ts'
import {ReferenceIndex} from '../store/referenceIndex.ts'
import type {CommittedTransaction, Doc} from '../types.ts'

/**
 * A resuming client (Last-Event-ID) that missed more transactions than this gets `restart`
 * (refetch everything) instead of a catch-up message: checking what it missed reads each of
 * them from SQLite, and a client that far behind refetches anyway.
 */
export const maxResumeGap = 100

interface LiveEventsConfig {
  /** Interval of `: keepalive` comments, as on the listen stream (Sanity sends one per 15 s). */
  keepAliveMs?: number
  /** What open streams hold (per caller and visitors' in all), shared with the other stream endpoint. */
  slots?: StreamSlots
}

type Change = {id: string; before: Doc | null; after: Doc | null}

/**
 * The tags one commit means to a listener (../syncTags.ts): its public documents' tags, and for
 * `includeDrafts` listeners `s1:drafts` when a draft or version changed. A private id other than
 * a draft or version (inbox.*: contact messages) is never content, so it tags nothing, even for
 * the owner.
 */
function tagsOf(references: ReferenceIndex, changes: Change[], includeDrafts: boolean): string[] {
  const tags = new Set(
    changeTags(
      changes.filter((change) => isPublicId(change.id)),
      (ids) => references.referencesAny(ids),
    ),
  )
  if (includeDrafts && changes.some(({id}) => isDraftId(id) || id.startsWith('versions.')))
    tags.add(draftsTag)
  return [...tags].sort()
}

/**
 * What a client resuming after `lastEventId` missed: the tags of the commits since (each
 * document's before read from the log), or undefined when the lake cannot say (an id it never
 * sent, or too far behind).
 */
function missedTags(
  lake: Lake,
  references: ReferenceIndex,
  lastEventId: string,
  includeDrafts: boolean,
) {
  if (!/^\d{1,15}$/.test(lastEventId)) return undefined
  const seq = Number(lastEventId)
  if (seq > lake.revision || lake.revision - seq > maxResumeGap) return undefined
  const store = storeOf(lake)
  const missed = store.transactionsSince(seq, maxResumeGap)
  return tagsOf(
    references,
    missed.flatMap((tx) =>
      tx.documents.map(({id, after}) => ({id, after, before: store.documentAt(id, tx.seq - 1)})),
    ),
    includeDrafts,
  )
}

/** Every stream of a kind gets the same tags for a commit: worked out once per commit. */
class CommitTags {
  private readonly references: ReferenceIndex
  private last: {seq: number; tags: Map<boolean, string[]>} = {seq: -1, tags: new Map()}

  constructor(references: ReferenceIndex) {
    this.references = references
  }

  of(tx: CommittedTransaction, includeDrafts: boolean): string[] {
    if (this.last.seq !== tx.seq) this.last = {seq: tx.seq, tags: new Map()}
    let tags = this.last.tags.get(includeDrafts)
    if (!tags) {
      tags = tagsOf(this.references, tx.changes, includeDrafts)
      this.last.tags.set(includeDrafts, tags)
    }
    return tags
  }
}

/** A visitor asking for drafts: logged (summarised per client) and a 401. */
function draftsWithoutToken(c: Context, client: string) {
  refusals.refuse(
    client,
    'live-drafts',
    `[lake] 401 ${c.req.method} ${safe(c.req.path)} from ${client}: includeDrafts without a token`,
  )
  return unauthorized('Unauthorized - includeDrafts=true requires a token')
}

/**
 * A stream's first events: `welcome` (with `resumedFrom` and a catch-up `message` when a resume
 * is honoured), or `restart` when it cannot be.
 */
function sendOpening(
  stream: SseStream,
  lake: Lake,
  references: ReferenceIndex,
  lastEventId: string | undefined,
  includeDrafts: boolean,
): void {
  const revision = lake.revision
  const missed =
    lastEventId === undefined ? [] : missedTags(lake, references, lastEventId, includeDrafts)
  stream.retry(reconnectDelayMs)
  if (missed === undefined) return stream.send('restart', {}, `${revision}`)
  stream.send('welcome', lastEventId === undefined ? {} : {resumedFrom: lastEventId}, `${revision}`)
  if (missed.length > 0) stream.send('message', {tags: missed}, `${revision}`)
}

/**
 * GET /v{version}/data/live/events/{dataset}: the live-content stream `client.live.events()`
 * and the Presentation tool open. `welcome` first (or `restart` when a resume cannot be
 * honoured), then `message` with the commit's seq as id and `{tags}` per commit that means
 * something to this listener; keep-alive comments between. A resume that is honoured says so:
 * its `welcome` carries `{resumedFrom: <Last-Event-ID>}`, so a subscriber can tell it from a
 * fresh stream that lost its position (server/live/contentEvents.ts clears its caches only then).
 * `includeDrafts=true` needs the owner's token. Bounded like the listen stream: per-client caps,
 * the token re-checked before each event and keep-alive, the stream ended at once on logout. At
 * shutdown the stream just ends, without `disconnect` (after which @sanity/client never
 * reconnects): EventSource comes back with Last-Event-ID once the lake serves again.
 */
export function registerLiveEvents(
  app: Hono,
  lake: Lake,
  config: LiveEventsConfig = {},
): {close(): void; readonly connections: number} {
  const keepAliveMs = config.keepAliveMs ?? 15_000
  const streams = new OpenStreams(lake, keepAliveMs, config.slots)
  // Created before any stream subscribes, so its commit listener runs first and each stream
  // reads it in step with the commit it is tagging.
  const references = new ReferenceIndex(lake)
  const commitTags = new CommitTags(references)

  app.get('/:version/data/live/events/:dataset', (c) => {
    checkDataset(c, lake)
    const client = clientOf(c).key
    const authenticated = identify(c, lake) !== undefined
    const includeDrafts = flag(c, 'includeDrafts')
    if (includeDrafts && !authenticated) throw draftsWithoutToken(c, client)
    const token = authenticated ? bearerToken(c.req.header('authorization')) : undefined
    // Same caps as the listen stream: the owner's per token (each Studio session), a visitor's
    // per address. The site's own subscription (one per site process) is not a visitor's.
    const release = isInternal(c, lake)
      ? () => {}
      : streams.reserve(c, client, token, 'live-cap', 'live event streams')
    const {stream, stillAllowed} = streams.open(token, release)
    // EventSource sends Last-Event-ID when it reconnects by itself. One tick from the opening
    // to the subscription: a commit is either counted in what was missed (up to the revision)
    // or delivered live afterwards, never both and never neither.
    sendOpening(stream, lake, references, c.req.header('last-event-id'), includeDrafts)
    stream.onClose(
      lake.onCommit((tx) => {
        if (!stillAllowed()) return stream.close()
        const tags = commitTags.of(tx, includeDrafts)
        if (tags.length > 0) stream.send('message', {tags}, `${tx.seq}`)
      }),
    )
    return stream.response()
  })

  return {
    get connections() {
      return streams.size
    },
    close: () => streams.close(),
  }
}
