import type {DatabaseSync} from 'node:sqlite'
import type {Federation} from '@fedify/fedify'
import {isRecord} from '../util/isRecord.ts'
import {blockIdPrefix, Blocks} from './blocks.ts'
import type {SocialConfig} from './config.ts'
import {openSocialDatabase} from './database.ts'
import {buildFederation} from './federation.ts'
import {Followers} from './followers.ts'
import {actorKeys} from './keys.ts'
import {SqliteKvStore} from './kvStore.ts'
import {Publications} from './publications.ts'
import {runningMessage, SqliteMessageQueue} from './queue.ts'
import type {ContentChange, SocialContent} from './socialContent.ts'
import {threadIdPrefix, Threads} from './threads.ts'

/**
 * One process's social web, running: the database of keys-values and queues in DATA_DIR, the
 * followers and blocks in the content store, the Fedify federation, and what follows the
 * content's changes (new posts to send, comment threads to rewrite). feature.ts mounts its routes.
 */
export class SocialWeb {
  readonly followers: Followers
  readonly blocks: Blocks
  readonly federation: Federation<void>
  private readonly db: DatabaseSync
  private readonly keys: Promise<CryptoKeyPair[]>
  private readonly publications: Publications
  private readonly threads: Threads
  private readonly abort = new AbortController()
  private blocksLoaded: Promise<void>
  private queueDone: Promise<void> = Promise.resolve()
  private unsubscribe = () => {}

  private readonly content: SocialContent
  private readonly social: SocialConfig

  constructor(
    content: SocialContent,
    dataDir: string,
    social: SocialConfig,
    siteUrl: () => string,
  ) {
    this.content = content
    this.social = social
    this.db = openSocialDatabase(dataDir)
    const kv = new SqliteKvStore(this.db)
    kv.sweep()
    this.followers = new Followers(content)
    this.blocks = new Blocks(content)
    // Read before the first activity can arrive (the server listens after the app is built).
    this.blocksLoaded = this.loadBlocks()
    // Made once at the first start (slow under load): a stop waits for it, so that the file is
    // never written into a data dir that is being removed.
    this.keys = actorKeys(dataDir)
    this.federation = buildFederation({
      content,
      followers: this.followers,
      keys: this.keys,
      kv,
      queues: this.openQueues(),
      allowPrivate: social.allowPrivate,
      tries: social.sendTries,
      retrySeconds: social.retrySeconds,
      onGivenUp: (inbox, reason) => this.giveUp(inbox, reason),
      onTriesExhausted: (reason) => {
        const message = runningMessage()
        if (isRecord(message) && typeof message.inbox === 'string')
          this.giveUp(message.inbox, reason)
      },
    })
    this.threads = new Threads(content)
    this.publications = new Publications({
      content,
      federation: this.federation,
      followers: this.followers,
      siteUrl,
      isBlocked: (follower) => this.blocks.isBlocked(follower),
      blocksRead: () => this.blocksLoaded,
    })
  }

  /** Starts the delivery queue and follows the content: call once the routes are mounted. */
  start(): void {
    this.queueDone = this.federation.startQueue(undefined, {signal: this.abort.signal})
    this.unsubscribe = this.content.onChange((change) => this.changed(change))
    this.publications.poke()
    void this.refreshThreads()
  }

  async close(): Promise<void> {
    this.unsubscribe()
    await this.publications.close()
    await this.threads.idle()
    this.abort.abort()
    await this.queueDone
    await this.blocksLoaded
    await this.keys.catch(() => undefined)
    await this.content.close()
    this.db.close()
  }

  private openQueues() {
    const {db} = this
    return {
      inbox: new SqliteMessageQueue({db, name: 'inbox'}),
      fanout: new SqliteMessageQueue({db, name: 'fanout'}),
      outbox: new SqliteMessageQueue({
        db,
        name: 'outbox',
        gapMs: 1000 / this.social.sendPerSecond,
        onResumed: (messages) =>
          console.warn(
            `[social] ${messages.length} delivery(ies) interrupted by a stop mid-send: sent again with the same activity id (the inbox deduplicates it)`,
          ),
      }),
    }
  }

  private changed({documents, public: seen}: ContentChange): void {
    // No names (a stream that came back, a reset): anything may have changed.
    if (!documents || documents.some((change) => change.id.startsWith(blockIdPrefix)))
      this.blocksLoaded = this.loadBlocks()
    if (documents) this.threads.touched(documents)
    else void this.refreshThreads()
    // A thread's rewrite (threads.ts) is public but no post changed: nothing to federate.
    const ownWrite =
      documents !== undefined &&
      documents.length > 0 &&
      documents.every((change) => change.id.startsWith(threadIdPrefix))
    if (seen && !ownWrite) this.publications.poke()
  }

  private loadBlocks(): Promise<void> {
    return this.blocks
      .load()
      .catch((error: unknown) => console.error('[social] could not read the blocks', error))
  }

  private refreshThreads(): Promise<void> {
    return this.threads
      .all()
      .catch((error: unknown) =>
        console.error("[social] could not update the posts' comments", error),
      )
  }

  private giveUp(inbox: string, reason: string): void {
    console.warn(`[social] gave up delivering to ${inbox}: ${reason}`)
    void this.followers
      .markFailed(inbox, reason)
      .catch((error: unknown) => console.error('[social] could not mark a dead inbox', error))
  }
}
