import {randomBytes} from 'node:crypto'
import {Auth, resolveOwnerToken, type SessionLifetimes} from './auth.ts'
import type {Identity} from './identity.ts'
import {LakeError} from './errors.ts'
import {TransactionBuilder, type MutationResult, type WorkingState} from './writes/mutations.ts'
import type {Perspective} from './perspective.ts'
import {
  anonymousQueryLimits,
  trustedQueryLimits,
  type Lane,
  type QueryLimits,
} from './queryPool/queryBudgets.ts'
import {QueryPool} from './queryPool/queryPool.ts'
import type {WarmQuery, WorkerResult, WorkerTask} from './queryPool/queryWorker.ts'
import {GroupCommit} from './writes/groupCommit.ts'
import {lastRevision} from './history/historyLog.ts'
import {checkStrongReferences, StrongReferrers} from './writes/strongReferences.ts'
import {checkPlainWrites} from './releases/plainWrites.ts'
import {Store} from './store/store.ts'
import type {FailedAttempts} from '../util/failedAttempts.ts'
import type {PreviewSessions} from './sessions/previewSessions.ts'
import type {CommittedTransaction, Doc} from './types.ts'

export interface LakeOptions {
  dataDir: string
  projectId: string
  dataset: string
  /** Owner token; generated into the data dir when absent. */
  token?: string
  /** Budgets of the owner and the site's renders (queryBudgets.ts); tests pass smaller ones. */
  queryLimits?: QueryLimits
  /** Budgets of anonymous callers. */
  anonymousQueryLimits?: QueryLimits
  /**
   * SITE_READ_TOKEN: what separate site processes send instead of `internalSecret`, with the
   * same meaning (trusted lane, anonymous visibility).
   */
  siteReadToken?: string
  /**
   * A query the readers will ask that is worth preparing ahead: the site's search, which each
   * query worker folds and rehearses after it loads and after a burst of changes
   * (queryWorker.ts `warmSearch`). The wiring hands it in (server/start.ts); the lake does not
   * know the site. None: nothing is warmed.
   */
  warmQuery?: WarmQuery
}

export interface QueryOptions {
  perspective?: Perspective
  /** Authenticated callers may see private (dotted) ids; anonymous ones never do. */
  authenticated?: boolean
  /** A preview session: authenticated, but sees only public documents and their drafts. */
  preview?: boolean
  /**
   * Which budget and lane of the query pool: 'trusted' for the owner and the site's own renders,
   * 'anonymous' for visitors. Defaults to 'trusted' for authenticated calls, else 'anonymous'.
   */
  lane?: Lane
  /** The caller's client key (server/http/clientAddress.ts), for fairness among visitors. */
  client?: string
}

export interface MutateOptions {
  transactionId?: string
  author?: string
  autoGenerateArrayKeys?: boolean
  dryRun?: boolean
}

export interface MutateResult {
  transactionId: string
  results: Array<MutationResult & {document?: Doc | null}>
  /** The committed transaction; absent for a dry run or when nothing changed. */
  transaction?: CommittedTransaction
}

type CommitListener = (tx: CommittedTransaction) => void

/**
 * The local Content Lake: documents in SQLite, GROQ by groq-js, patches by @sanity/mutator.
 * One instance per data dir; the HTTP API (routes.ts) and server features use this facade.
 */
export class Lake {
  readonly projectId: string
  readonly dataset: string
  /** The lake's own files reach these through storeOf() and authOf(); everyone else uses methods. */
  private readonly store: Store
  private readonly auth: Auth
  readonly tokenFile: string | undefined
  readonly queryLimits: Record<Lane, QueryLimits>
  /**
   * A per-process random secret the site's own server-side client sends (web/sanity.client.ts),
   * so its queries are not counted as a visitor's (api/query.ts). Never leaves the process.
   */
  readonly internalSecret = randomBytes(32).toString('base64url')
  /** LakeOptions.siteReadToken. */
  readonly siteReadToken: string | undefined
  private readonly listeners = new Set<CommitListener>()
  private readonly pool: QueryPool
  /** Writes run one at a time so each sees the previous one's result. */
  private queue: Promise<unknown> = Promise.resolve()
  private readonly group: GroupCommit
  /** Who strongly references what, so a delete that would break a reference is refused. */
  private readonly strongReferrers = new StrongReferrers(() => ({
    docs: this.store.snapshot(),
    seq: this.revision,
  }))

  constructor(options: LakeOptions) {
    this.projectId = options.projectId
    this.dataset = options.dataset
    this.siteReadToken = options.siteReadToken
    this.store = new Store(options.dataDir)
    const {token, file} = resolveOwnerToken(options.dataDir, options.token)
    this.auth = new Auth(token, this.store.db)
    this.tokenFile = file
    this.queryLimits = {
      trusted: options.queryLimits ?? trustedQueryLimits,
      anonymous: options.anonymousQueryLimits ?? anonymousQueryLimits,
    }
    const database = this.store.db.location()
    if (!database) throw new Error('the lake needs a database file its query workers can read')
    this.pool = new QueryPool({database: () => database, warm: options.warmQuery})
    this.group = new GroupCommit(this.store, (batch) => {
      this.mirror(batch)
      for (const committed of batch) this.notify(committed)
    })
    this.onCommit((tx) => this.strongReferrers.apply(tx))
  }

  get token(): string {
    return this.auth.ownerToken
  }

  /** Position of the newest committed transaction. */
  /** Documents held (drafts and private ones included). */
  get documentCount(): number {
    return this.store.size
  }

  /** A new Studio session for the owner, as the login flow issues it; its token. */
  createSession(): string {
    return this.auth.createSession()
  }

  /** Ends a Studio session now (and the previews opened from it). */
  revokeSession(token: string): void {
    this.auth.revokeSession(token)
  }

  /** Who a token is (the owner, a Studio session, a preview), or undefined if it is none of them. */
  verifyToken(token: string | undefined): Identity | undefined {
    return this.auth.verify(token)
  }

  /** Sets how long sessions live and, for tests, the clock they are measured by. */
  configureSessions(options: {lifetimes?: SessionLifetimes; now?: () => number}): void {
    this.auth.configure(options)
  }

  /** The failed token attempts per client, one count for every surface that takes a token. */
  failedTokenAttempts(): FailedAttempts {
    return this.auth.attempts
  }

  /** The preview sessions opened from this lake's Studio sessions (server/preview/). */
  previewSessions(): PreviewSessions {
    return this.auth.previews
  }

  get revision(): number {
    return this.store.revision
  }

  getDocument(id: string): Doc | undefined {
    return this.store.get(id)
  }

  /** A document's newest stored content, also once deleted (from the transaction log). */
  lastRevision(id: string): Doc | null {
    return lastRevision(this.store.db, id)
  }

  /** Runs GROQ with the HTTP API's semantics (perspective, access, limits). */
  async query<T = unknown>(
    query: string,
    params: Record<string, unknown> = {},
    options: QueryOptions = {},
  ): Promise<T> {
    // GROQ results are untyped JSON: T is the caller's statement of its query's shape, exactly as
    // with @sanity/client's fetch<T>; no guard can know it.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- see above
    return JSON.parse(await this.queryJson(query, params, options)) as T
  }

  /**
   * The query's result as JSON text (what the HTTP API sends), evaluated on the query pool so
   * that its lane's time budget can stop it; a result over the lane's size budget is a 400.
   */
  async queryJson(
    query: string,
    params: Record<string, unknown> = {},
    options: QueryOptions = {},
  ): Promise<string> {
    return (await this.queryAnswer(query, params, options)).json
  }

  /**
   * The query's result as JSON text and its sync tags (syncTags.ts), both from the worker's one
   * parse: the main thread parses nothing (a 700-character query with new params cost it ~0.2 ms).
   */
  async queryAnswer(
    query: string,
    params: Record<string, unknown> = {},
    options: QueryOptions = {},
  ): Promise<{json: string; tags: string[]}> {
    const authenticated = options.authenticated ?? false
    const lane = options.lane ?? (authenticated ? 'trusted' : 'anonymous')
    const limits = this.queryLimits[lane]
    const result = await this.runTask(
      {
        type: 'query',
        query,
        params,
        perspective: options.perspective ?? 'raw',
        reader: !authenticated ? 'anonymous' : options.preview ? 'preview' : 'owner',
        maxResultBytes: limits.maxResultBytes,
        sanity: this.sanity,
      },
      {lane, client: options.client ?? 'in-process', timeoutMs: limits.timeoutMs},
    )
    return 'json' in result ? result : {json: 'null', tags: []}
  }

  /**
   * Which of `docs` a listen filter matches, evaluated on the query pool within `timeoutMs`
   * (api/listen.ts): a filter never runs on the main thread.
   */
  async matchFilter(
    filter: {query: string; params: Record<string, unknown>},
    docs: Array<Doc | null>,
    options: {lane: Lane; client: string; timeoutMs: number},
  ): Promise<boolean[]> {
    const result = await this.runTask(
      {type: 'match', ...filter, docs, sanity: this.sanity},
      options,
    )
    return 'matches' in result ? result.matches : docs.map(() => false)
  }

  private runTask(
    task: WorkerTask,
    options: {lane: Lane; client: string; timeoutMs: number},
  ): Promise<WorkerResult> {
    return this.pool.run(task, options)
  }

  private get sanity(): {projectId: string; dataset: string} {
    return {projectId: this.projectId, dataset: this.dataset}
  }

  /** Patch/delete by query: evaluated on the pool over the replica plus the pending changes. */
  private async selectIds(
    query: string,
    params: Record<string, unknown>,
    working: WorkingState,
  ): Promise<string[]> {
    const result = await this.runTask(
      {type: 'select', query, params, overlay: working.differences(), sanity: this.sanity},
      {lane: 'trusted', client: 'owner', timeoutMs: this.queryLimits.trusted.timeoutMs},
    )
    return 'ids' in result ? result.ids : []
  }

  /**
   * Applies `build` to a fresh transaction and commits its changes atomically and durably.
   * Any error thrown by `build` discards the whole transaction.
   */
  async transact<T>(
    options: MutateOptions,
    build: (tx: TransactionBuilder) => Promise<T>,
  ): Promise<{value: T; tx: TransactionBuilder; committed?: CommittedTransaction}> {
    const run = async () => {
      const dependency = this.group.dependency()
      const tx = new TransactionBuilder(this.group, (q, p, d) => this.selectIds(q, p, d), options)
      if (options.transactionId && this.group.hasTransaction(options.transactionId)) {
        throw new LakeError(
          409,
          'conflict',
          `Transaction ID "${options.transactionId}" has already been used`,
        )
      }
      const value = await build(tx)
      // Before a dry run returns too: the Studio dry-runs a delete to know whether it may.
      checkStrongReferences(tx, this.strongReferrers)
      if (dependency?.failed) {
        throw new LakeError(
          503,
          'transactionAborted',
          'An earlier transaction this one depended on could not be stored; retry',
        )
      }
      const changes = tx.changes()
      if (options.dryRun || changes.length === 0) return {value, tx}
      const durable = this.group.enqueue({
        id: tx.id,
        timestamp: tx.timestamp,
        author: options.author ?? 'p-owner',
        changes,
      })
      return {value, tx, durable}
    }
    // Builds run one at a time (each sees the previous one); commits are grouped (groupCommit.ts).
    const built = this.queue.then(run, run)
    this.queue = built.catch(() => undefined)
    const {value, tx, durable} = await built
    const committed = durable ? await durable : undefined
    return {value, tx, committed}
  }

  /**
   * POST /data/mutate semantics: all mutations in one transaction, all or nothing. The lake
   * takes the mutation objects over (documents keep their nested values as given): callers
   * must not modify them afterwards.
   */
  async mutate(mutations: unknown[], options: MutateOptions = {}): Promise<MutateResult> {
    const {value, tx, committed} = await this.transact(options, async (t) => {
      const results: MutationResult[] = []
      for (const [index, mutation] of mutations.entries())
        results.push(...(await t.apply(mutation, index)))
      checkPlainWrites(t)
      return results
    })
    return {
      transactionId: tx.id,
      results: value.map((r) => ({...r, document: tx.get(r.id)})),
      transaction: committed,
    }
  }

  /**
   * Commits prepared changes as they are (imports keep their system fields); notifies listeners.
   * Callers must not interleave this with `transact` work; imports run before serving.
   */
  commitRaw(tx: {
    id: string
    timestamp: string
    author: string
    changes: CommittedTransaction['changes']
  }): CommittedTransaction {
    if (!this.group.idle) throw new Error('commitRaw while served transactions are pending')
    const committed = this.store.commit(tx)
    this.mirror([committed])
    this.notify(committed)
    return committed
  }

  /**
   * Keeps the query workers' replicas in step, before anyone hears of the commits: the pool
   * gets each document as its stored JSON (types.ts `stored`) and hands it to each worker before
   * that worker's next task (queryPool.ts `apply`).
   */
  private mirror(batch: CommittedTransaction[]): void {
    this.pool.apply(
      batch.flatMap((committed) =>
        committed.changes.map(({id, after}, i) => ({
          seq: committed.seq,
          id,
          json: committed.stored?.[i] ?? (after ? JSON.stringify(after) : null),
        })),
      ),
    )
  }

  private notify(committed: CommittedTransaction): void {
    for (const listener of this.listeners) {
      try {
        listener(committed)
      } catch (error) {
        console.error('[lake] commit listener failed', error)
      }
    }
  }

  /** Subscribes to committed transactions; returns the unsubscribe function. */
  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Whether the database is open (false once `close` ran): part of /readyz. */
  get open(): boolean {
    return this.store.db.isOpen
  }

  /** The query pool's workers, ready and busy (queryPool.ts `status`): part of /readyz. */
  poolStatus(): {ready: number; busy: number} {
    return this.pool.status()
  }

  close(): void {
    this.listeners.clear()
    this.group.close()
    this.pool.close()
    this.store.close()
  }
}

/** The lake's store, for the lake's own files (its HTTP API, the CLI): not exported by index.ts. */
export function storeOf(lake: Lake): Store {
  // Bracket access reaches the private field on purpose: this accessor is the lake's inside door.
  return lake['store']
}

/** The lake's token and session checks, for the lake's own files: not exported by index.ts. */
export function authOf(lake: Lake): Auth {
  return lake['auth']
}
