import type {Context, Federation} from '@fedify/fedify'
import {Create, Delete, Tombstone, Update} from '@fedify/vocab'
import {Temporal} from '@js-temporal/polyfill'
import type {SocialContent} from './socialContent.ts'
import {actorIdentifier} from './actor.ts'
import {postArticle, postUrl, type ArticleSite} from './article.ts'
import type {Follower, Followers} from './followers.ts'
import {sharedPostById, sharedPostVersions, type PostVersion} from './posts.ts'

/**
 * What the followers were last sent of a post (`socialPost.<post id>`, private): `existing` for
 * the back catalogue found at the first start (in the outbox, never pushed), `sent` once its
 * `Create` (or `Update`) is queued, `deleted` once its `Delete` is.
 */
interface Sent {
  _id: string
  _type: 'socialPost'
  postId: string
  slug: string
  rev: string
  status: 'existing' | 'sent' | 'deleted'
}

const author = 'social'
const stateId = 'social.state'
const sentId = (postId: string) => `socialPost.${postId}`
const publicAudience = new URL('https://www.w3.org/ns/activitystreams#Public')

export interface PublicationOptions {
  content: SocialContent
  federation: Federation<void>
  followers: Followers
  siteUrl: () => string
  isBlocked: (follower: Follower) => boolean
  /** Resolves once the blocks are up to date with the content (a block just committed counts). */
  blocksRead: () => Promise<void>
  now?: () => number
}

/**
 * Pushes the posts to the followers (docs/social-web.md): a shared post's first publish queues
 * its `Create`, an edit its `Update`, an unpublish, a delete or "Share to the social web" turned
 * off its `Delete` with a `Tombstone`. Woken by every public commit (feature.ts), one pass at a
 * time, like the newsletter's mailings. The activity is queued (Fedify's fan-out, queue.ts) before
 * the post's state is committed, and its id is the post's URL and revision: a pass run again
 * after a crash queues the same id, which the queue drops as a duplicate.
 */
export class Publications {
  private readonly options: PublicationOptions
  private readonly now: () => number
  private running: Promise<void> | undefined
  private again = false
  private closed = false

  constructor(options: PublicationOptions) {
    this.options = options
    this.now = options.now ?? Date.now
  }

  poke(): void {
    if (this.closed) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.pass()
      .catch((error: unknown) => {
        if (!this.closed) console.error('[social] publication pass failed', error)
      })
      .finally(() => {
        this.running = undefined
        if (this.again) {
          this.again = false
          this.poke()
        }
      })
  }

  async close(): Promise<void> {
    this.closed = true
    await this.running
  }

  private async pass(): Promise<void> {
    const {content} = this.options
    const posts = await sharedPostVersions(content)
    const sent = await content.query<Sent[]>('*[_type == "socialPost"]')
    const known = new Map(sent.map((s) => [s.postId, s]))
    const first = !(await content.getDocument(stateId))
    let since = 0
    if (first) {
      // Until someone follows, there is no one to send to and no line to draw: a dataset no one
      // follows carries no social state. The first follower's arrival draws it: posts out before
      // then are the back catalogue (the outbox lists them), posts published since are news.
      const earliest = await content.query<string | null>(
        '*[_type == "socialFollower"] | order(_createdAt asc)[0]._createdAt',
        {},
      )
      if (!earliest) return
      since = Date.parse(earliest)
      await content.mutate(
        [{createIfNotExists: {_id: stateId, _type: 'socialState', since: earliest}}],
        {author},
      )
    }
    const shared = new Set(posts.map((p) => p._id))
    for (const post of posts) {
      if (this.closed) return
      const before = known.get(post._id)
      if (!before && first && Date.parse(post._updatedAt) < since) {
        await this.record(post, 'existing')
        continue
      }
      if (before && before.status !== 'deleted' && before.rev === post._rev) continue
      await this.publish(post, before)
    }
    for (const before of sent) {
      if (this.closed) return
      if (before.status === 'deleted' || shared.has(before.postId)) continue
      await this.send(this.deleteOf(before, before.rev))
      await content.mutate([{patch: {id: before._id, set: {status: 'deleted'}}}], {author})
      console.info(`[social] ${before.postId} unshared: Delete queued`)
    }
  }

  private async publish(version: PostVersion, before: Sent | undefined): Promise<void> {
    const post = await sharedPostById(this.options.content, version._id)
    if (!post) return
    const site = this.site()
    const article = postArticle(post, site)
    const live = before && before.status !== 'deleted'
    // A new slug is a new address, hence a new object: the old one is deleted.
    if (live && before.slug !== post.slug) await this.send(this.deleteOf(before, version._rev))
    const kind = live && before.slug === post.slug ? 'update' : 'create'
    const id = new URL(`${article.id?.href ?? ''}#${kind}-${version._rev}`)
    const activity =
      kind === 'update'
        ? new Update({
            id,
            actor: site.actor,
            object: article,
            to: publicAudience,
            cc: site.followers,
            updated: article.updated,
          })
        : new Create({
            id,
            actor: site.actor,
            object: article,
            to: publicAudience,
            cc: site.followers,
            published: article.published,
          })
    await this.send(activity)
    await this.record({...version, slug: post.slug}, 'sent')
    console.info(
      `[social] ${post._id} ${kind === 'update' ? 'edited' : 'published'}: ${kind} queued`,
    )
  }

  private deleteOf(before: Sent, rev: string): Delete {
    const site = this.site()
    const url = postUrl(site.siteUrl, before.slug)
    return new Delete({
      id: new URL(`${url.href}#delete-${rev}`),
      actor: site.actor,
      object: new Tombstone({id: url, deleted: Temporal.Instant.fromEpochMilliseconds(this.now())}),
      to: publicAudience,
      cc: site.followers,
    })
  }

  private async record(post: PostVersion & {slug?: string}, status: Sent['status']): Promise<void> {
    const slug =
      post.slug ??
      (await this.options.content.query<string | null>('*[_id == $id][0].slug.current', {
        id: post._id,
      })) ??
      ''
    const doc: Sent = {
      _id: sentId(post._id),
      _type: 'socialPost',
      postId: post._id,
      slug,
      rev: post._rev,
      status,
    }
    await this.options.content.mutate([{createOrReplace: doc}], {author})
  }

  private context(): Context<void> {
    return this.options.federation.createContext(new URL(this.options.siteUrl()), undefined)
  }

  private site(): ArticleSite {
    const ctx = this.context()
    return {
      siteUrl: this.options.siteUrl(),
      actor: ctx.getActorUri(actorIdentifier),
      followers: ctx.getFollowersUri(actorIdentifier),
    }
  }

  /** To every follower not blocked, once per shared inbox, through the queue. */
  private async send(activity: Create | Update | Delete): Promise<void> {
    await this.options.blocksRead()
    const followers = (await this.options.followers.all()).filter((f) => !this.options.isBlocked(f))
    if (followers.length === 0) return
    const recipients = followers.map((f) => ({
      id: new URL(f.actor),
      inboxId: new URL(f.inbox),
      endpoints: f.sharedInbox ? {sharedInbox: new URL(f.sharedInbox)} : null,
    }))
    await this.context().sendActivity({identifier: actorIdentifier}, recipients, activity, {
      preferSharedInbox: true,
      fanout: 'force',
    })
  }
}
