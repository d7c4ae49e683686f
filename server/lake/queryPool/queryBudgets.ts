/**
 * Every limit on GROQ evaluation in one place (docs/architecture.md, "Query pool"). Queries,
 * listen filters and selections by query all run on the query pool's workers (queryPool.ts),
 * never on the main thread, and each evaluation has a time budget after which its worker is
 * terminated and replaced.
 */

/** Who asks decides the budget and the lane (queryPool.ts). */
export type Lane = 'trusted' | 'anonymous'

export interface QueryLimits {
  /** Wall-clock budget for one evaluation, from the moment a worker takes it. */
  timeoutMs: number
  /** Largest serialized result, in bytes. */
  maxResultBytes: number
}

/**
 * The owner (token or Studio session) and the site's own renders: as before the pool, 10 s and
 * 64 MiB. The GROQ test suite (bench/groqSuite.ts) needs the 10 s for its slowest valid cases, and
 * an export-sized result of the whole dataset needs the room.
 */
export const trustedQueryLimits: QueryLimits = {
  timeoutMs: 10_000,
  maxResultBytes: 64 * 1024 * 1024,
}

/**
 * Anonymous callers. The site's slowest query (the blog list with its count) takes 55 ms at
 * 10,000 posts (bench/results/latest.md), so 2 s is 35 times that, and 4 MiB is ten times the
 * largest page's data; a runaway is stopped 5 times sooner than the owner's.
 */
export const anonymousQueryLimits: QueryLimits = {
  timeoutMs: 2_000,
  maxResultBytes: 4 * 1024 * 1024,
}

/**
 * Workers in the pool, and how many of them anonymous work may hold at once. The machine has 2
 * cores; workers are here for isolation (a worker can be terminated, a running evaluation cannot
 * be interrupted) more than for throughput, and the OS shares the cores between them. Each
 * worker holds a replica of the documents, so the count is also a memory budget.
 *
 * Anonymous work gets one worker: the site's own renders are trusted (api/internal.ts), and a
 * visitor's query takes milliseconds, so one worker serves honest visitors, while two stay
 * ready for the owner, the renders, and for a waiting honest query when a runaway is preempted.
 * Measured with three clients sending runaways (2 cores, shared): with two anonymous workers the
 * runaways kept both cores busy, a replaced worker took up to 1 s to start, and an honest query
 * waited 1–2 s; with one, honest queries answered in 100–560 ms. A fourth worker (two always
 * ready) measured no better, for one more replica.
 */
export const poolSize = 3
export const anonymousWorkers = 1

/**
 * When a query that deserves a worker (trusted, or from a client in good standing) is waiting
 * and every worker it may use runs anonymous work that has already run this long, the longest
 * of those is stopped (a `queryTimeout`) so the waiting one can start on a ready worker. Page
 * queries finish in under 60 ms even at 10,000 posts (bench/results/latest.md); at 250 ms an
 * honest query waited up to 1 s behind three clients' runaways, at 100 ms at most 0.6 s.
 */
export const preemptAfterMs = 100

/**
 * A client whose query was stopped at its budget is "in bad standing" this long: its queued
 * queries yield to those of other clients, and they never preempt anything.
 */
export const badStandingMs = 10_000

/**
 * Anonymous queries one client may have in flight (running or queued). The site's browser
 * client asks one query per navigation; 2 leaves room for a prefetch. Over it: 429.
 */
export const maxAnonymousQueriesPerClient = 2

/**
 * How long a query may wait for a worker before it is refused with a 503 (and Retry-After):
 * the queue must not grow without bound when more clients than workers send runaways.
 */
export const maxQueueWaitMs = 10_000

/**
 * A worker's heap. The owner's largest result (64 MiB of JSON) plus its object form and the
 * replica fit; an evaluation that allocates more ends its worker (answered as a 400), never
 * the process.
 */
export const workerHeapMb = 512

/**
 * Listen filters, per evaluation (the probe at open, or one commit's documents for one
 * listener). A filter is a per-document test that takes microseconds: 100 ms on a handful of
 * documents is far beyond any real one, and the cost is paid on every commit for every
 * listener. The owner's (the Studio's) get 1 s, so a starved core never cuts a Studio stream.
 */
export const listenFilterTimeoutMs: Record<Lane, number> = {trusted: 1_000, anonymous: 100}

/**
 * How far above its level before, at most, the process's resident memory stays once a worker
 * lost to an out-of-memory query has been replaced (docs/security.md): the lost worker's heap
 * (up to `workerHeapMb`) is freed with its thread; what remains is the new worker's replica and
 * allocator slack.
 */
export const rssAfterWorkerLossMb = 64

/**
 * How long the replicas must go without a change before the workers warm the site's search again
 * (queryPool.ts `warmWhenQuiet`). A warm-up re-folds the changed posts and patches the postings
 * in every worker: per commit, a burst of writes cost ~8 ms of CPU per mutation; after each
 * quarter second of quiet, the steps of a write burst with short pauses between them still paid
 * it (bench/lakeWrites.ts). A search meanwhile folds what it needs itself.
 */
export const warmQuietMs = 1_000
