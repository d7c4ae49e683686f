import type {SocialContent} from './socialContent.ts'
import {commentIdPrefix} from './replies.ts'
import {reactionIdPrefix} from './reactions.ts'
import {sanitizeRemoteHtml} from './remoteHtml.ts'

/**
 * The public side of a post's conversation: a public document `socialThread-<post id>` holding
 * its approved comments (replies nested one level) and its like and boost counts, rewritten here
 * whenever a comment or a reaction of the post changes (an approval in the Studio, a new like).
 *
 * Why a projection, not a privileged read by the renderer: comments and reactions are private
 * documents (dotted ids), and the site's reads, in process, from a site process (LAKE_URL) or
 * from sanity.io, see published public documents only, by design. This document carries only
 * what a reader may see (no pending or hidden comment, no actor ids, no avatar URL), so the site
 * reads it through the ordinary public path, its render cache is dropped by the live events'
 * sync tags like for any edit, and no credential that could read drafts or private documents
 * reaches the page's render.
 */
export const threadIdPrefix = 'socialThread-'
export const threadIdOf = (postId: string) => `${threadIdPrefix}${postId}`

/** Bounds a thread's document: the oldest approved comments first, up to this many. */
const maxShown = 500

/** A comment as the query projects it: a field the document lacks is null. */
interface StoredComment {
  _id: string
  author?: {name?: string; handle?: string; profile?: string} | null
  content?: string | null
  summary?: string | null
  published?: string | null
  url?: string | null
  inReplyToComment?: string | null
}

interface ShownComment {
  _key: string
  authorName?: string
  authorHandle?: string
  authorProfile?: string
  content: string
  summary?: string
  published?: string
  url?: string
}

export interface Thread {
  _id: string
  _type: 'socialThread'
  postId: string
  likes: number
  boosts: number
  comments: Array<ShownComment & {replies: ShownComment[]}>
}

const threadQuery = `{
  "comments": *[_type == "socialComment" && postId == $postId && status == "approved"] | order(published asc) [0...${maxShown}]{_id, author, content, summary, published, url, inReplyToComment},
  "likes": count(*[_type == "socialReaction" && postId == $postId && kind == "like"]),
  "boosts": count(*[_type == "socialReaction" && postId == $postId && kind == "boost"])
}`

const httpUrl = (value: string | null | undefined) =>
  typeof value === 'string' && /^https?:\/\//i.test(value) ? value : undefined

function shown(comment: StoredComment): ShownComment {
  const author = comment.author ?? {}
  const profile = httpUrl(author.profile)
  const url = httpUrl(comment.url)
  return {
    _key: comment._id.slice(commentIdPrefix.length),
    ...(author.name ? {authorName: author.name} : {}),
    ...(author.handle ? {authorHandle: author.handle} : {}),
    ...(profile ? {authorProfile: profile} : {}),
    // Sanitized when stored; again here, since this is what the page will hold as HTML.
    content: sanitizeRemoteHtml(comment.content ?? ''),
    ...(comment.summary ? {summary: comment.summary} : {}),
    ...(comment.published ? {published: comment.published} : {}),
    ...(url ? {url} : {}),
  }
}

/**
 * Nests replies under their approved parent (one level: a reply to a reply joins its
 * top-level comment's replies). A reply whose parent is not approved is not shown: it would
 * answer something the readers cannot see.
 */
export function nest(comments: StoredComment[]): Thread['comments'] {
  const parentOf = (comment: StoredComment) => comment.inReplyToComment ?? undefined
  const byId = new Map(comments.map((comment) => [comment._id, comment]))
  const topOf = (comment: StoredComment): StoredComment | undefined => {
    let current = comment
    for (let depth = 0; depth < 8; depth++) {
      const parentId = parentOf(current)
      if (parentId === undefined) return current
      const parent = byId.get(parentId)
      if (!parent) return undefined
      current = parent
    }
    return undefined
  }
  const top = new Map<string, ShownComment & {replies: ShownComment[]}>()
  for (const comment of comments)
    if (parentOf(comment) === undefined) top.set(comment._id, {...shown(comment), replies: []})
  for (const comment of comments) {
    if (parentOf(comment) === undefined) continue
    const root = topOf(comment)
    if (root) top.get(root._id)?.replies.push(shown(comment))
  }
  return [...top.values()]
}

/** The thread of `postId` as it should be now; null when there is nothing to show. */
async function threadOf(content: SocialContent, postId: string): Promise<Thread | null> {
  const found = await content.query<{comments: StoredComment[]; likes: number; boosts: number}>(
    threadQuery,
    {postId},
  )
  const comments = nest(found.comments)
  if (comments.length === 0 && found.likes === 0 && found.boosts === 0) return null
  return {
    _id: threadIdOf(postId),
    _type: 'socialThread',
    postId,
    likes: found.likes,
    boosts: found.boosts,
    comments,
  }
}

const sameContent = (doc: Record<string, unknown>, thread: Thread) =>
  JSON.stringify([doc.likes, doc.boosts, doc.comments]) ===
  JSON.stringify([thread.likes, thread.boosts, thread.comments])

/**
 * Keeps the threads current: `touched` queues posts whose comments or reactions changed, one
 * rebuild runs at a time (a burst of likes costs one rewrite per post, not one per like), and a
 * thread whose content did not change is not rewritten (a rewrite drops the page's cache).
 */
export class Threads {
  private readonly waiting = new Set<string>()
  private running: Promise<void> = Promise.resolve()
  private scheduled = false
  private readonly content: SocialContent

  constructor(content: SocialContent) {
    this.content = content
  }

  /** The posts a commit's comment and reaction changes belong to. */
  touched(changes: Iterable<{id: string; before: unknown; after: unknown}>): void {
    for (const change of changes) {
      if (!change.id.startsWith(commentIdPrefix) && !change.id.startsWith(reactionIdPrefix))
        continue
      for (const doc of [change.before, change.after]) {
        const postId =
          typeof doc === 'object' && doc !== null && 'postId' in doc ? doc.postId : undefined
        if (typeof postId === 'string') this.waiting.add(postId)
      }
    }
    this.schedule()
  }

  /** Every post with comments, reactions or a thread already: the first start, a restore. */
  async all(): Promise<void> {
    const ids = await this.content.query<string[]>(
      'array::unique(*[_type in ["socialComment", "socialReaction", "socialThread"]].postId)',
      {},
    )
    for (const id of ids) if (typeof id === 'string') this.waiting.add(id)
    this.schedule()
    await this.idle()
  }

  /** Resolves when every queued rebuild is done. */
  async idle(): Promise<void> {
    while (this.scheduled || this.waiting.size > 0) await this.running
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.size === 0) return
    this.scheduled = true
    this.running = this.running.then(async () => {
      this.scheduled = false
      const posts = [...this.waiting]
      this.waiting.clear()
      for (const postId of posts) {
        try {
          await this.rebuild(postId)
        } catch (error) {
          console.error(`[social] could not update the comments of post ${postId}`, error)
        }
      }
      this.schedule()
    })
  }

  private async rebuild(postId: string): Promise<void> {
    const _id = threadIdOf(postId)
    const thread = await threadOf(this.content, postId)
    const existing = await this.content.getDocument(_id)
    if (!thread) {
      if (existing) await this.content.mutate([{delete: {id: _id}}], {author: 'social'})
      return
    }
    if (existing && sameContent(existing, thread)) return
    await this.content.mutate([{createOrReplace: thread}], {author: 'social'})
  }
}
