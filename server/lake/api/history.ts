import type {Context, Hono} from 'hono'
import {documentEffects, type Effects} from '../events/effects.ts'
import {badRequest} from '../errors.ts'
import {
  documentAtRevision,
  documentAtTime,
  historySeqs,
  lastRevision,
  seqAtTime,
  seqOf,
} from '../history/historyLog.ts'
import {documentEvents} from '../history/historyEvents.ts'
import {releaseIdPattern} from '../perspective.ts'
import {releaseEvents} from '../releases/releaseEvents.ts'
import {checkDataset, flag, requireIdentity} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import type {StoredTransaction} from '../store/store.ts'
import type {Doc} from '../types.ts'
import {storeOf} from '../lake.ts'

/** Most lines one transactions request returns (its `limit` may ask for fewer). */
export const maxHistoryLines = 10_000

/** A path segment's text; a malformed escape (`%`, `%zz`) is the client's error, a 400. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    throw badRequest('Malformed percent-escape in the document id')
  }
}

function idsOf(c: Context): string[] {
  const ids = (c.req.param('ids') ?? '')
    .split(',')
    .map((id) => decoded(id.trim()))
    .filter(Boolean)
  if (ids.length === 0) throw badRequest('No document ids given')
  return ids
}

function timeParam(c: Context, name: string): string | undefined {
  const value = c.req.query(name)
  if (value === undefined || value === '') return undefined
  if (Number.isNaN(Date.parse(value))) throw badRequest(`"${name}" must be an ISO 8601 date-time`)
  return value
}

function limitParam(c: Context): number {
  const value = c.req.query('limit')
  if (value === undefined || value === '') return maxHistoryLines
  const limit = Number(value)
  if (!Number.isInteger(limit) || limit < 1) throw badRequest('"limit" must be a positive integer')
  return Math.min(limit, maxHistoryLines)
}

interface HistoryLine {
  id: string
  timestamp: string
  author: string
  mutations?: unknown[]
  documentIDs: string[]
  effects?: Record<string, Effects>
}

/**
 * A transaction's id as the Studio's timeline needs it: it aligns each document's `_rev` with
 * a line's id, so a transaction that imported documents with their own `_rev` (an export
 * round trip keeps them) is reported under that revision.
 */
function lineId(tx: StoredTransaction, docs: StoredTransaction['documents']): string {
  const revs = new Set(docs.map((doc) => doc.rev))
  const [rev] = revs
  return revs.size === 1 && typeof rev === 'string' ? rev : tx.id
}

/** The transactions' sequence numbers a request asks for, from its bounds, limit and order. */
function requestedSeqs(c: Context, lake: Lake, ids: string[]): number[] {
  const db = storeOf(lake).db
  const boundary = (name: string) => {
    const value = c.req.query(name)
    if (value === undefined || value === '') return undefined
    const seq = seqOf(db, value, ids)
    if (seq === undefined) throw badRequest(`"${name}": unknown transaction "${value}"`)
    return seq
  }
  const fromTime = timeParam(c, 'fromTime')
  const toTime = timeParam(c, 'toTime')
  const froms = [boundary('fromTransaction'), fromTime && seqAtTime(db, fromTime, 'from')]
  const tos = [boundary('toTransaction'), toTime && seqAtTime(db, toTime, 'to')]
  return historySeqs(db, ids, {
    fromSeq: Math.max(0, ...froms.filter((s) => typeof s === 'number')),
    toSeq: Math.min(Number.MAX_SAFE_INTEGER, ...tos.filter((s) => typeof s === 'number')),
    limit: limitParam(c),
    reverse: flag(c, 'reverse'),
  })
}

/** One NDJSON line a transaction, shaped by the request's flags. */
function transactionLine(c: Context, lake: Lake, ids: string[]): (seq: number) => string {
  const wanted = new Set(ids)
  const identifiedOnly = flag(c, 'includeIdentifiedDocumentsOnly')
  // excludeContent leaves out what was written; the Studio still gets effects to rebuild revisions.
  const withMutations = !flag(c, 'excludeContent') && !flag(c, 'excludeMutations')
  const withEffects = c.req.query('effectFormat') === 'mendoza'

  return (seq: number): string => {
    const tx = storeOf(lake).transactionAt(seq)
    if (!tx) return ''
    const docs = identifiedOnly ? tx.documents.filter((doc) => wanted.has(doc.id)) : tx.documents
    const out: HistoryLine = {
      id: lineId(tx, docs),
      timestamp: tx.timestamp,
      author: tx.author,
      documentIDs: docs.map((d) => d.id),
    }
    if (withMutations) out.mutations = docs.flatMap((doc) => doc.mutations)
    if (withEffects) {
      out.effects = Object.fromEntries(
        docs.map((doc) => [
          doc.id,
          documentEffects(storeOf(lake).documentAt(doc.id, seq - 1), doc.after),
        ]),
      )
    }
    return `${JSON.stringify(out)}\n`
  }
}

/** The transactions of documents as NDJSON, streamed a few lines at a time. */
function transactionsResponse(c: Context, lake: Lake): Response {
  const ids = idsOf(c)
  const seqs = requestedSeqs(c, lake, ids)
  const line = transactionLine(c, lake, ids)
  let next = 0
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      // A few lines per pull keeps memory flat for long histories.
      const chunk = seqs
        .slice(next, next + 20)
        .map(line)
        .join('')
      next += 20
      if (chunk) controller.enqueue(encoder.encode(chunk))
      if (next >= seqs.length) controller.close()
    },
  })
  return new Response(body, {
    headers: {'content-type': 'application/x-ndjson', 'cache-control': 'private, no-store'},
  })
}

/** Documents as of a revision, a time or their last revision. */
function documentsResponse(c: Context, lake: Lake): Response {
  const ids = idsOf(c)
  const db = storeOf(lake).db
  const revision = c.req.query('revision')
  const time = timeParam(c, 'time')
  const last = flag(c, 'lastRevision')
  const given = [revision !== undefined && revision !== '', time !== undefined, last].filter(
    Boolean,
  ).length
  if (given !== 1) throw badRequest('Give exactly one of "revision", "time" or "lastRevision"')
  const at = (id: string): Doc | null =>
    revision
      ? documentAtRevision(db, id, revision)
      : time
        ? documentAtTime(db, id, time)
        : lastRevision(db, id)
  const documents = ids.map(at).filter((doc) => doc !== null)
  // Like Sanity: a revision that does not exist (or predates the document) is an empty list,
  // which the Studio's "Review changes" reads as "no document then", not an error.
  return c.json({documents}, 200, {'cache-control': 'private, no-store'})
}

/**
 * The History API (https://www.sanity.io/docs/http-reference/history): transactions of
 * documents as NDJSON, documents as of a revision or a time, and the Studio's events list.
 * Every call needs a token, as on Sanity.
 */
export function registerHistory(app: Hono, lake: Lake): void {
  app.get('/:version/data/history/:dataset/transactions/:ids', (c) => {
    checkDataset(c, lake)
    requireIdentity(c, lake)
    return transactionsResponse(c, lake)
  })

  app.get('/:version/data/history/:dataset/documents/:ids', (c) => {
    checkDataset(c, lake)
    requireIdentity(c, lake)
    return documentsResponse(c, lake)
  })

  app.get('/:version/data/history/:dataset/events/documents/:id', (c) => {
    checkDataset(c, lake)
    requireIdentity(c, lake)
    const id = decoded(c.req.param('id'))
    const limit = Math.min(limitParam(c), 1000)
    const {events, nextCursor} = documentEvents(
      storeOf(lake),
      id,
      limit,
      c.req.query('nextCursor') || undefined,
    )
    return c.json({events: {[id]: events}, nextCursor}, 200, {'cache-control': 'private, no-store'})
  })

  // A release's Activity panel (sanity.config.ts turns on `beta.eventsAPI.releases`).
  app.get('/:version/data/history/:dataset/events/releases/:releaseId', (c) => {
    checkDataset(c, lake)
    requireIdentity(c, lake)
    const releaseId = decoded(c.req.param('releaseId'))
    if (!releaseIdPattern.test(releaseId))
      throw badRequest('The release id must be 1-64 letters, digits, "_" or "-"')
    const cursor = c.req.query('nextCursor') || undefined
    if (cursor !== undefined && !/^\d{1,15}(?::\d{1,6})?$/.test(cursor))
      throw badRequest('"nextCursor" must be a cursor this endpoint returned')
    const limit = Math.min(limitParam(c), 1000)
    const page = releaseEvents(storeOf(lake), releaseId, limit, cursor)
    return c.json(page, 200, {'cache-control': 'private, no-store'})
  })
}
