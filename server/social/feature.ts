import type {Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {isRecord} from '../util/isRecord.ts'
import {RateLimiter, type RateLimitOptions} from '../util/rateLimit.ts'
import {blockIdPrefix, Blocks} from './blocks.ts'
import {contentFor} from './contentFor.ts'
import {readSocialConfig, type SocialConfig} from './config.ts'
import {openSocialDatabase} from './database.ts'
import {registerOwnerRoutes} from './ownerRoutes.ts'
import {buildFederation} from './federation.ts'
import {Followers} from './followers.ts'
import {articleMiddleware, federationMiddleware} from './honoBridge.ts'
import {registerInbox} from './inbox.ts'
import {loadActorKeys} from './keys.ts'
import {SqliteKvStore} from './kvStore.ts'
import {Publications} from './publications.ts'
import {runningMessage, SqliteMessageQueue} from './queue.ts'
import {threadIdPrefix, Threads} from './threads.ts'

/** Seams for tests; the server passes none and gets the environment's settings. */
export interface SocialOptions {
  config?: Partial<SocialConfig>
  inboxRate?: RateLimitOptions
  /**
   * Test only, never from the environment: in hosted mode, the API's origin (a local lake served
   * over HTTP) in place of `https://<projectId>.api.sanity.io`.
   */
  hostedApiHost?: string
}

/** Activities per remote host per minute: a busy instance sends a few a second at peaks. */
export const defaultInboxRate = {limit: 300, windowMs: 60_000} as const

/** The owner's block requests per client per minute: a person clicking, or a script's batch. */
const ownerRate = {limit: 120, windowMs: 60_000} as const

/** The federation's own paths: Fedify answers them all (honoBridge.ts). */
const federationPaths = [
  '/.well-known/webfinger',
  '/.well-known/nodeinfo',
  '/nodeinfo/*',
  '/social/*',
]
/** A post's address: its `Article` when ActivityPub asks for it, else the site's page. */
const articlePath = '/blog/:slug'

/**
 * The social web (issue 39, docs/social-web.md): the site is one ActivityPub account through
 * Fedify, followers are private documents in the content store (socialContent.ts: the local lake,
 * or the hosted dataset with a write token), deliveries go through a durable queue in
 * DATA_DIR/social.sqlite. The process with the content holds the keys and the queue; a site
 * process (LAKE_URL) forwards to it and mounts nothing here.
 */
export function mountSocial(
  app: Hono,
  ctx: AppContext,
  options: SocialOptions = {},
): Feature | void {
  const {config} = ctx
  const store = contentFor(ctx, options.hostedApiHost)
  if (store === undefined) return
  if ('off' in store) {
    console.info(`[social] not on the social web: ${store.off}`)
    return
  }
  const {content} = store
  const social = {...readSocialConfig(), ...options.config}
  const db = openSocialDatabase(config.dataDir)
  const kv = new SqliteKvStore(db)
  kv.sweep()
  const followers = new Followers(content)
  const blocks = new Blocks(content)
  // Read before the first activity can arrive (the server listens after the app is built).
  const loadBlocks = () =>
    blocks
      .load()
      .catch((error: unknown) => console.error('[social] could not read the blocks', error))
  let blocksLoaded = loadBlocks()
  const queues = {
    inbox: new SqliteMessageQueue({db, name: 'inbox'}),
    fanout: new SqliteMessageQueue({db, name: 'fanout'}),
    outbox: new SqliteMessageQueue({
      db,
      name: 'outbox',
      gapMs: 1000 / social.sendPerSecond,
      onResumed: (messages) =>
        console.warn(
          `[social] ${messages.length} delivery(ies) interrupted by a stop mid-send: sent again with the same activity id (the inbox deduplicates it)`,
        ),
    }),
  }
  // Made once at the first start (slow under load): a stop waits for it, so that the file is
  // never written into a data dir that is being removed.
  const keys = loadActorKeys(config.dataDir)
  // Whatever signs awaits the keys and sees the failure; this says it once, and keeps a failed
  // first start (a full disk) from being an unhandled rejection that stops the process.
  keys.catch((error: unknown) =>
    console.error(
      '[social] the actor keys could not be made; signing fails until a restart',
      error,
    ),
  )
  const giveUp = (inbox: string, reason: string) => {
    console.warn(`[social] gave up delivering to ${inbox}: ${reason}`)
    void followers
      .markFailed(inbox, reason)
      .catch((error: unknown) => console.error('[social] could not mark a dead inbox', error))
  }
  const federation = buildFederation({
    content,
    followers,
    keys,
    kv,
    queues,
    allowPrivate: social.allowPrivate,
    tries: social.sendTries,
    retrySeconds: social.retrySeconds,
    onGivenUp: giveUp,
    onTriesExhausted: (reason) => {
      const message = runningMessage()
      if (isRecord(message) && typeof message.inbox === 'string') giveUp(message.inbox, reason)
    },
  })
  registerInbox(federation, followers, content)
  registerOwnerRoutes(app, {
    owner: store.owner,
    content,
    followers,
    limiter: new RateLimiter(ownerRate),
  })
  const middleware = federationMiddleware(
    () => federation,
    () => config.siteUrl,
    {
      limiter: new RateLimiter(options.inboxRate ?? defaultInboxRate),
      isBlockedHost: (host) => blocks.isBlockedHost(host),
    },
  )
  for (const path of federationPaths) app.use(path, middleware)
  app.use(
    articlePath,
    articleMiddleware(
      () => federation,
      () => config.siteUrl,
    ),
  )

  const abort = new AbortController()
  const queueDone = federation.startQueue(undefined, {signal: abort.signal})
  const publications = new Publications({
    content,
    federation,
    followers,
    siteUrl: () => config.siteUrl,
    isBlocked: (follower) => blocks.isBlocked(follower),
    blocksRead: () => blocksLoaded,
  })
  const threads = new Threads(content)
  const refreshThreads = () =>
    threads
      .all()
      .catch((error: unknown) =>
        console.error("[social] could not update the posts' comments", error),
      )
  const unsubscribe = content.onChange(({documents, public: seen}) => {
    // No names (a stream that came back, a reset): anything may have changed.
    if (!documents || documents.some((change) => change.id.startsWith(blockIdPrefix)))
      blocksLoaded = loadBlocks()
    if (documents) threads.touched(documents)
    else void refreshThreads()
    // A thread's rewrite (threads.ts) is public but no post changed: nothing to federate.
    const ownWrite =
      documents !== undefined &&
      documents.length > 0 &&
      documents.every((change) => change.id.startsWith(threadIdPrefix))
    if (seen && !ownWrite) publications.poke()
  })
  publications.poke()
  void refreshThreads()
  console.info(
    `[social] the site is on the social web (Fedify): deliveries at ${social.sendPerSecond}/s at most` +
      (social.allowPrivate
        ? '; FEDERATION_ALLOW_PRIVATE=1: loopback and private addresses ARE fetched (tests and local trials only)'
        : ''),
  )
  return {
    close: async () => {
      unsubscribe()
      await publications.close()
      await threads.idle()
      abort.abort()
      await queueDone
      await blocksLoaded
      await keys.catch(() => undefined)
      await content.close()
      db.close()
    },
  }
}
