import {createHash} from 'node:crypto'
import type {InboxContext} from '@fedify/fedify'
import {Article, isActor, Note, type Actor} from '@fedify/vocab'
import type {SocialContent} from './socialContent.ts'
import {postAt} from './reactions.ts'
import {sanitizeRemoteHtml} from './remoteHtml.ts'

/**
 * A reply from the fediverse to one of the posts: a private document (`comment.<hash>`, an id
 * with a dot, so never on the public read path) awaiting the owner's moderation in the Studio.
 */
export interface Comment {
  _id: string
  _type: 'socialComment'
  /** The post replied to (its published id). */
  postId: string
  /** `pending` until the owner approves or hides it. */
  status: 'pending' | 'approved' | 'hidden'
  noteId: string
  /** The original's address, for "reply on Mastodon" and for the owner. */
  url: string
  author: {actor: string; name?: string; handle?: string; profile?: string; avatar?: string}
  /** Sanitized HTML (remoteHtml.ts). */
  content: string
  sensitive?: boolean
  summary?: string
  published: string
  updated?: string
  /** The comment this one answers, when it answers a comment (threads nest one level). */
  inReplyToComment?: string
}

const author = 'social'
export const commentIdPrefix = 'comment.'
export const commentId = (noteId: string) =>
  `${commentIdPrefix}${createHash('sha256').update(noteId).digest('hex').slice(0, 32)}`

/** A stored comment keeps its moderation through its author's edits. */
function statusOf(value: unknown): Comment['status'] {
  return value === 'approved' || value === 'hidden' ? value : 'pending'
}

/**
 * A new reply's status: `approved` when the owner turned on `autoApproveReplies` in the site
 * settings and already approved a reply of this author, and hid none; else `pending`.
 */
async function firstStatus(content: SocialContent, actor: string): Promise<Comment['status']> {
  const known = await content.query<unknown>(
    `*[_id == "siteSettings"][0].autoApproveReplies == true &&
      count(*[_type == "socialComment" && author.actor == $actor && status == "approved"]) > 0 &&
      count(*[_type == "socialComment" && author.actor == $actor && status == "hidden"]) == 0`,
    {actor},
  )
  return known === true ? 'approved' : 'pending'
}

function text(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value)
}

/**
 * The author's avatar address, for the owner (readers never load it): the icon's own URL when
 * the actor embeds it (Mastodon, Misskey and Fedify servers do), else the reference. Nothing
 * is fetched for it.
 */
async function avatarOf(actor: Actor, ctx: InboxContext<void>): Promise<string | undefined> {
  if (actor.iconId) return actor.iconId.href
  const icon = await actor.getIcon({documentLoader: ctx.documentLoader}).catch(() => null)
  const url = icon?.url
  const href = url instanceof URL ? url : url?.href
  return href && /^https?:$/.test(href.protocol) ? href.href : undefined
}

function authorOf(actor: Actor, avatar: string | undefined): Comment['author'] {
  const name = text(actor.name)?.slice(0, 200)
  const username = text(actor.preferredUsername)
  const actorId = actor.id?.href ?? ''
  return {
    actor: actorId,
    ...(name ? {name} : {}),
    ...(username && actor.id ? {handle: `@${username}@${actor.id.host}`} : {}),
    ...(actor.url instanceof URL ? {profile: actor.url.href} : {profile: actorId}),
    ...(avatar ? {avatar} : {}),
  }
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (c) => `&${{'&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot'}[c]};`)

/**
 * What a reply says, sanitized: a `Note`'s content; for an `Article` (a blog post answering
 * ours, as WordPress's ActivityPub plugin sends one) its title linked to it and its summary,
 * as Mastodon shows articles: the whole post is the author's, on the author's site.
 */
function replyHtml(object: Note | Article, url: string): string {
  if (object instanceof Note) return sanitizeRemoteHtml(text(object.content) ?? '')
  const title = escapeHtml(text(object.name) ?? url)
  const summary = text(object.summary) ?? ''
  return sanitizeRemoteHtml(`<p><a href="${escapeHtml(url)}">${title}</a></p>${summary}`)
}

/**
 * Stores a `Note` (or a WordPress `Article`) replying to one of our posts (or to a stored comment) as a pending comment;
 * an `Update` by its author replaces the content. Anything else is not ours and is ignored.
 */
export async function storeReply(
  ctx: InboxContext<void>,
  store: SocialContent,
  siteUrl: string,
  activityActor: URL,
  note: unknown,
  update = false,
): Promise<void> {
  if (!(note instanceof Note || note instanceof Article) || !note.id || !note.replyTargetId) return
  // Only the note's author may create or change it.
  if (note.attributionId?.href !== activityActor.href) return
  const _id = commentId(note.id.href)
  const existing = await store.getDocument(_id)
  if (update && !existing) return
  if (existing && existing.author !== undefined && !update) return
  let postId = await postAt(store, siteUrl, note.replyTargetId)
  let parent: string | undefined
  if (!postId) {
    const parentDoc = await store.getDocument(commentId(note.replyTargetId.href))
    if (!parentDoc || typeof parentDoc.postId !== 'string') return
    postId = parentDoc.postId
    parent = parentDoc._id
  }
  const actor = await note.getAttribution(ctx)
  if (!actor || !isActor(actor)) return
  const url = note.url instanceof URL ? note.url.href : note.id.href
  const content = replyHtml(note, url)
  // A note's summary is its content warning; an article's is its abstract (in the content).
  const summary = note instanceof Note ? text(note.summary) : undefined
  const now = new Date().toISOString()
  const comment: Comment = {
    _id,
    _type: 'socialComment',
    postId,
    status: existing ? statusOf(existing.status) : await firstStatus(store, activityActor.href),
    noteId: note.id.href,
    url,
    author: authorOf(actor, await avatarOf(actor, ctx)),
    content,
    ...(note.sensitive ? {sensitive: true} : {}),
    ...(summary ? {summary: summary.slice(0, 500)} : {}),
    published: note.published?.toString() ?? now,
    ...(update ? {updated: now} : {}),
    ...(parent ? {inReplyToComment: parent} : {}),
  }
  await store.mutate([{createOrReplace: comment}], {author})
}

/** A `Delete` by a comment's author removes it; anyone else's is ignored. */
export async function deleteReply(
  content: SocialContent,
  activityActor: URL,
  objectId: URL,
): Promise<void> {
  const _id = commentId(objectId.href)
  const existing = await content.getDocument(_id)
  if (!existing) return
  const by = existing.author
  if (typeof by !== 'object' || by === null || !('actor' in by) || by.actor !== activityActor.href)
    return
  await content.mutate([{delete: {id: _id}}], {author})
}
