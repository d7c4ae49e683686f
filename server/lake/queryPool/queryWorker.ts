/**
 * A query worker: a replica of the lake's documents on its own thread, where GROQ runs.
 * groq-js evaluates in long chains of microtasks that no timer can interrupt, so a runaway
 * evaluation on the main thread would block every request; here the main thread simply
 * terminates the worker when one overruns its budget (queryPool.ts), and starts a fresh one.
 *
 * The replica is read from SQLite by the worker itself: cloning 10,000 documents through
 * postMessage took 200–500 ms of the main thread per start, and a runaway costs a start.
 */
import {queryTags} from '../events/syncTags.ts'
import {DatabaseSync} from 'node:sqlite'
import {parentPort} from 'node:worker_threads'
import {evaluateSync} from 'groq-js'
import {LakeError} from '../errors.ts'
import {evaluateJson, parseQuery} from '../groq.ts'
import {defaultPerspective, documentsFor, type Perspective, type Reader} from '../perspective.ts'
import type {Doc} from '../types.ts'
import {currentDocumentsInOrder, parseStoredDoc} from '../store/storeRows.ts'
import {ChangeOverlay, overlaid, type CoalescedChange} from '../store/documentOrder.ts'
import {messageOf} from '../../util/messageOf.ts'
import {TextIndexReader} from '../textQuery/textIndexReader.ts'
import {warmTextSearch} from '../textQuery/rewriteTextQuery.ts'

type Sanity = {projectId: string; dataset: string}

/** One unit of work; the pool gives each an id and a budget. */
export type WorkerTask =
  | {
      type: 'query'
      query: string
      params: Record<string, unknown>
      perspective: Perspective
      reader: Reader
      maxResultBytes: number
      sanity: Sanity
    }
  /** A listen filter over single documents: which of `docs` it matches (null never does). */
  | {
      type: 'match'
      query: string
      params: Record<string, unknown>
      docs: Array<Doc | null>
      sanity: Sanity
    }
  /** Patch/delete by query: the ids selected over the replica with `overlay` (pending changes). */
  | {
      type: 'select'
      query: string
      params: Record<string, unknown>
      overlay: Array<[string, CoalescedChange<Doc>]>
      sanity: Sanity
    }

/**
 * A search the lake's readers will ask, which each worker prepares ahead (warmSearch below): the
 * lake serves a site but does not know it, so the wiring hands this in (LakeOptions.warmQuery).
 */
export interface WarmQuery {
  query: string
  /** Params of a broad ask (every document its filter can match): the rehearsal's. */
  params: Record<string, unknown>
  /** The API version it is asked at, anonymously: its default perspective is the view warmed. */
  apiVersion: string
}

export type WorkerRequest =
  | {type: 'load'; database: string; warm?: WarmQuery}
  /** Prepare the warm query's search (warmSearch below); the pool asks one worker at a time. */
  | {type: 'warm'}
  /** Each changed document as stored (its JSON; null: deleted), parsed here, off the main thread. */
  | {type: 'apply'; changes: ReplicaChange[]}
  | {type: 'task'; id: number; task: WorkerTask}

export interface ReplicaChange {
  /** The transaction's log position. */
  seq: number
  id: string
  json: string | null
}

/** A query's result as JSON text, and its sync tags (../syncTags.ts) from the same parse. */
export type WorkerResult = {json: string; tags: string[]} | {matches: boolean[]} | {ids: string[]}

export type WorkerReply =
  | {ready: true}
  /** The warm-up the pool asked for is done. */
  | {warmed: true}
  | {id: number; result: WorkerResult}
  | {
      id: number
      error: {status: number; type: string; description: string; details: Record<string, unknown>}
    }

const docs = new Map<string, Doc>()
/** The log position the replica reflects: changes at or before it are already in. */
let loadedSeq = 0
/** The text index, read beside the replica (textIndexReader.ts); none if it cannot be opened. */
let textIndex: TextIndexReader | undefined
/** Per perspective and access, the documents a query sees; rebuilt after each change. */
const views = new Map<string, Doc[]>()
/**
 * Changes received and not yet taken into `docs`: per document, its newest stored JSON (null:
 * deleted). They are parsed when something next reads the replica, so a burst of writes with no
 * query between costs each worker a map entry per commit, and a document written ten times is
 * parsed once. Coalescing keeps a delete-then-create's move to the end of `*`
 * (documentOrder.ts): a plain map of newest values replaced it in place, so workers that had
 * read between the two writes and workers that had not disagreed on `*[0...3]`.
 */
const pending = new ChangeOverlay<string>()

function applyPending(): void {
  if (pending.size === 0) return
  pending.applyTo(docs, parseStoredDoc)
  pending.clear()
  views.clear()
}

function view(perspective: Perspective, reader: Reader): Doc[] {
  applyPending()
  const key = `${perspective}:${reader}`
  let docsFor = views.get(key)
  if (!docsFor) {
    docsFor = documentsFor([...docs.values()], perspective, reader)
    views.set(key, docsFor)
  }
  return docsFor
}

/** Reads the current documents in one read transaction, so the replica is one consistent state. */
function load(database: string): void {
  const db = new DatabaseSync(database, {readOnly: true})
  try {
    db.exec('BEGIN')
    const last = db.prepare('SELECT MAX(seq) AS seq FROM transactions').get()
    loadedSeq = Number(last?.seq ?? 0)
    docs.clear()
    pending.clear()
    // The current revision of each document, in the order of `*`, as store.ts reads it at start.
    for (const row of db.prepare(currentDocumentsInOrder).iterate()) {
      const doc = parseStoredDoc(row.json)
      docs.set(doc._id, doc)
    }
    db.exec('COMMIT')
  } finally {
    db.close()
  }
  views.clear()
  textIndex?.close()
  try {
    textIndex = new TextIndexReader(database, () => loadedSeq)
  } catch (error) {
    // Searches still answer, by checking every document; the index is an accelerator.
    textIndex = undefined
    console.error('[lake] the text index could not be opened; searches scan', error)
  }
}

/** The query to warm, from the load request (none: warm-ups are not asked for). */
let warmQuery: WarmQuery | undefined

/**
 * The view the warm query reads: an anonymous reader, with the perspective its API version
 * defaults to (the site sends none; at 2023-07-29 that is `raw`, which shows an anonymous
 * reader the same documents as `published`, in another array).
 */
const warmView = (warm: WarmQuery): Doc[] => view(defaultPerspective(warm.apiVersion), 'anonymous')

/** Documents folded per turn of the warm-up: ~5–20 ms, so a query waits at most that long. */
const warmChunk = 100
let warming = false

/**
 * After a load or a change, folds the texts the warm query's search reads (the site's search,
 * handed in by the wiring, over the anonymous view) and inverts them into postings, a chunk (or one path's
 * inversion) per turn of the event loop, so queries arriving meanwhile run between chunks and
 * the first search does not fold 10k posts (~1 s). After a change most documents are folded
 * already and the postings are patched, so this is short. A change during a warm-up moves it to
 * the new view from where it was (the last step folds what it missed).
 */
function warmSearch(): void {
  const warm = warmQuery
  if (!warm) return warmed()
  if (warming) return
  warming = true
  const tree = parseQuery(warm.query, warm.params)
  let from = 0
  const step = () => {
    const current = warmView(warm)
    let done = true
    try {
      done = warmTextSearch(tree, current, from, from + warmChunk)
    } catch (error) {
      // Only an accelerator: a search folds what it needs itself.
      console.error('[lake] warming the search failed', error)
    }
    from += warmChunk
    if (!done) setImmediate(step)
    // Then one search over the new view builds what a search computes once per view
    // (nativePipeline.ts: the order's rank of the posts, the bits of `_type == "post"`; ~5–10 ms
    // at 10k posts), so the first reader after a change does not; the first time, 3 (V8 compiles).
    else void rehearse(warm, warmedCode ? 1 : 3).finally(warmed)
  }
  setImmediate(step)
}

/** The pool asks for one warm-up at a time (queryPool.ts `nextWarm`) and waits for this. */
function warmed(): void {
  warming = false
  parentPort?.postMessage({warmed: true} satisfies WorkerReply)
}

let warmedCode = false

/**
 * Asks the warm query `times` (one per turn) over its view, answers discarded:
 * 3 times after a worker's first warm-up, since V8 compiles the search's code on its first runs,
 * several times slower, and each worker would otherwise spend its first searches' time doing
 * it; once after each later warm-up, for what a search builds once per view. `*` matches every
 * post, the widest path through the filter, the scoring and the page.
 */
async function rehearse(warm: WarmQuery, times: number): Promise<void> {
  warmedCode = true
  const tree = parseQuery(warm.query, warm.params)
  for (let run = 0; run < times; run++) {
    await new Promise((resolve) => setImmediate(resolve))
    try {
      await evaluateJson(tree, warmView(warm), warm.params, {
        maxResultBytes: Number.MAX_SAFE_INTEGER,
        textIndex,
      })
    } catch (error) {
      console.error('[lake] rehearsing the search failed', error)
      return
    }
  }
}

function truthy(data: unknown): boolean {
  return Array.isArray(data)
    ? data.length > 0
    : data !== null && data !== undefined && data !== false
}

/**
 * Sanity's listener semantics: the filter is evaluated against a dataset of just that document
 * (projections ignored); it matches when the result is non-empty.
 */
function matches(task: Extract<WorkerTask, {type: 'match'}>): boolean[] {
  const tree = parseQuery(task.query, task.params)
  return task.docs.map((doc) => {
    if (!doc) return false
    const value = evaluateSync(tree, {dataset: [doc], params: task.params, sanity: task.sanity})
    return truthy('data' in value ? value.data : null)
  })
}

async function select(task: Extract<WorkerTask, {type: 'select'}>): Promise<string[]> {
  // In the order the commit will give (documentOrder.ts), so a slice selects what it will read.
  const working = overlaid(view('raw', 'owner'), task.overlay)
  // No text index here: the overlay's pending changes are not in it yet.
  const json = await evaluateJson(parseQuery(task.query, task.params), working, task.params, {
    maxResultBytes: Number.MAX_SAFE_INTEGER,
    sanity: task.sanity,
  })
  const result: unknown = JSON.parse(json)
  const items = Array.isArray(result) ? result : result == null ? [] : [result]
  return items.flatMap((item: unknown) =>
    typeof item === 'object' && item !== null && '_id' in item && typeof item._id === 'string'
      ? [item._id]
      : [],
  )
}

async function perform(task: WorkerTask): Promise<WorkerResult> {
  switch (task.type) {
    case 'query': {
      const tree = parseQuery(task.query, task.params)
      const docsFor = view(task.perspective, task.reader)
      const json = await evaluateJson(tree, docsFor, task.params, {...task, textIndex})
      return {json, tags: queryTags(tree)}
    }
    case 'match':
      try {
        return {matches: matches(task)}
      } catch (error) {
        if (error instanceof LakeError) throw error
        // Runtime errors (unsupported functions, bad argument types) are the filter's fault.
        throw new LakeError(400, 'queryError', messageOf(error))
      }
    case 'select':
      return {ids: await select(task)}
  }
}

async function answer(id: number, task: WorkerTask): Promise<WorkerReply> {
  try {
    return {id, result: await perform(task)}
  } catch (error) {
    if (error instanceof LakeError) {
      const {status, type, message: description, details} = error
      return {id, error: {status, type, description, details}}
    }
    const description = messageOf(error)
    return {id, error: {status: 500, type: 'internalServerError', description, details: {}}}
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  switch (request.type) {
    case 'load':
      warmQuery = request.warm
      load(request.database)
      // Budgets start from here: booting and loading the replica is not the task's fault.
      parentPort?.postMessage({ready: true} satisfies WorkerReply)
      return
    case 'warm':
      warmSearch()
      return
    case 'apply':
      // Changes the replica already read from SQLite (committed before the load) are skipped.
      for (const {seq, id, json} of request.changes) if (seq > loadedSeq) pending.set(id, json)
      loadedSeq = Math.max(loadedSeq, request.changes.at(-1)?.seq ?? loadedSeq)
      return
    case 'task':
      void answer(request.id, request.task).then((reply) => parentPort?.postMessage(reply))
  }
})
