import {createExponentialBackoffPolicy, createFederation, type Federation} from '@fedify/fedify'
import {Article, Endpoints, Person} from '@fedify/vocab'
import type {KvStore, MessageQueue} from '@fedify/fedify'
import type {SocialContent} from './socialContent.ts'
import {actorIdentifier, actorProfile, siteHandle} from './actor.ts'
import {createOf, postArticle, type ArticleSite} from './article.ts'
import type {Followers} from './followers.ts'
import {sharedPostBySlug, sharedPostCount, sharedPostPage} from './posts.ts'

/** Items per page of the outbox and the followers collection. */
export const collectionPageSize = 20

export interface FederationDeps {
  content: SocialContent
  followers: Followers
  /** Made or read once at start (keys.ts); awaited by whatever signs. */
  keys: Promise<CryptoKeyPair[]>
  kv: KvStore
  queues: {inbox: MessageQueue; outbox: MessageQueue; fanout: MessageQueue}
  /** FEDERATION_ALLOW_PRIVATE=1: fetch loopback and private addresses (tests, local trials). */
  allowPrivate: boolean
  /** Deliveries are tried this many times, with exponential backoff, before they are given up. */
  tries: number
  /** The first retry's delay; each next one doubles, at most 6 h apart. */
  retrySeconds: number
  /** A delivery given up: a permanent failure (404, 410) tells its inbox... */
  onGivenUp: (inbox: string, reason: string) => void
  /** ...the last try of a failing one does not: the caller knows which message was running. */
  onTriesExhausted: (reason: string) => void
}

const cursorOffset = (cursor: string) => {
  const n = Number.parseInt(cursor, 10)
  return Number.isSafeInteger(n) && n >= 0 ? n : 0
}

/**
 * The site as one ActivityPub account, all through Fedify (its WebFinger, NodeInfo, signatures,
 * JSON-LD and queues): the actor at /social/site, its inbox, outbox, followers and following,
 * and each post's `Article` at the post's own URL (asked for as activity+json).
 */
export function buildFederation(deps: FederationDeps): Federation<void> {
  const federation = createSiteFederation(deps)
  registerActor(federation, deps)
  registerCollections(federation, deps)
  registerPostsAndNodeInfo(federation, deps.content)
  federation.setOutboxPermanentFailureHandler((_ctx, failure) => {
    deps.onGivenUp(failure.inbox.href, `HTTP ${failure.statusCode}`)
  })
  return federation
}

/** Fedify's federation with our stores, queues and retry policy, and no routes yet. */
function createSiteFederation(deps: FederationDeps): Federation<void> {
  const backoff = createExponentialBackoffPolicy({
    // Fedify counts attempts from 0 and gives up once `attempts` reaches maxAttempts.
    maxAttempts: deps.tries - 1,
    initialDelay: {milliseconds: Math.round(deps.retrySeconds * 1000)},
    maxDelay: {hours: 6},
  })
  // Fedify tells onOutboxError of each failure just before it asks the policy for a delay.
  let lastFailure = ''
  return createFederation<void>({
    kv: deps.kv,
    queue: deps.queues,
    manuallyStartQueue: true,
    allowPrivateAddress: deps.allowPrivate,
    // The queue's at-most-once rule (queue.ts) keys a held message like its first try; retries
    // with backoff (below) already spare a dead server.
    circuitBreaker: false,
    outboxRetryPolicy: (context) => {
      const delay = backoff(context)
      if (delay === null) deps.onTriesExhausted(`${context.attempts + 1} tries: ${lastFailure}`)
      return delay
    },
    onOutboxError: (error) => {
      lastFailure = error.message.slice(0, 200)
    },
    userAgent: {software: 'Scriptorium'},
  })
}

const siteOf = (ctx: {
  getActorUri(id: string): URL
  getFollowersUri(id: string): URL
  origin: string
}): ArticleSite => ({
  siteUrl: ctx.origin,
  actor: ctx.getActorUri(actorIdentifier),
  followers: ctx.getFollowersUri(actorIdentifier),
})

/** The one actor, a `Person`, its keys, and the handle WebFinger finds it by. */
function registerActor(federation: Federation<void>, deps: FederationDeps): void {
  const {content} = deps
  federation
    .setActorDispatcher('/social/{identifier}', async (ctx, identifier) => {
      if (identifier !== actorIdentifier) return null
      const keys = await ctx.getActorKeyPairs(identifier)
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: await siteHandle(content),
        name: actorProfile.name,
        summary: actorProfile.summary,
        url: new URL(`${ctx.origin}/`),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        following: ctx.getFollowingUri(identifier),
        endpoints: new Endpoints({sharedInbox: ctx.getInboxUri()}),
        manuallyApprovesFollowers: false,
        discoverable: true,
        indexable: true,
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
      })
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) =>
      identifier === actorIdentifier ? await deps.keys : [],
    )
    .mapHandle(async (_ctx, username) =>
      username.toLowerCase() === (await siteHandle(content)) ? actorIdentifier : null,
    )
}

/** The actor's outbox (every published post), followers and (empty) following. */
function registerCollections(federation: Federation<void>, deps: FederationDeps): void {
  const {content, followers} = deps
  federation
    .setOutboxDispatcher('/social/{identifier}/outbox', async (ctx, identifier, cursor) => {
      if (identifier !== actorIdentifier || cursor === null) return null
      const offset = cursorOffset(cursor)
      const posts = await sharedPostPage(content, offset, collectionPageSize)
      const site = siteOf(ctx)
      return {
        items: posts.map((post) => createOf(postArticle(post, site), site)),
        nextCursor:
          posts.length === collectionPageSize ? String(offset + collectionPageSize) : null,
      }
    })
    .setFirstCursor(() => '0')
    .setCounter(() => sharedPostCount(content))

  federation
    .setFollowersDispatcher('/social/{identifier}/followers', async (_ctx, identifier, cursor) => {
      if (identifier !== actorIdentifier || cursor === null) return null
      const offset = cursorOffset(cursor)
      const page = await followers.page(offset, collectionPageSize)
      return {
        items: page.map((f) => ({
          id: new URL(f.actor),
          inboxId: new URL(f.inbox),
          endpoints: f.sharedInbox ? {sharedInbox: new URL(f.sharedInbox)} : null,
        })),
        nextCursor: page.length === collectionPageSize ? String(offset + collectionPageSize) : null,
      }
    })
    .setFirstCursor(() => '0')
    .setCounter(() => followers.count())

  federation
    .setFollowingDispatcher('/social/{identifier}/following', (_ctx, identifier, cursor) => {
      if (identifier !== actorIdentifier || cursor === null) return null
      return {items: [], nextCursor: null}
    })
    .setFirstCursor(() => '0')
    .setCounter(() => 0)
}

function registerPostsAndNodeInfo(federation: Federation<void>, content: SocialContent): void {
  // The post's own address: the page for a browser, its Article for activity+json (Fedify
  // answers only that media type; the site renders the rest, see honoBridge.ts).
  federation.setObjectDispatcher(Article, '/blog/{slug}', async (ctx, {slug}) => {
    const post = await sharedPostBySlug(content, slug)
    return post ? postArticle(post, siteOf(ctx)) : null
  })

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => ({
    software: {name: 'scriptorium', version: '0.1.0'},
    protocols: ['activitypub'],
    openRegistrations: false,
    usage: {
      users: {total: 1, activeHalfyear: 1, activeMonth: 1},
      localPosts: await sharedPostCount(content),
      localComments: 0,
    },
  }))
}
