import {createHash} from 'node:crypto'
import type {SocialContent} from './socialContent.ts'

/**
 * Likes and boosts (`Like`, `Announce`) of the posts: one private document per account, kind and
 * post (`reaction.<hash>`), so a repeat counts once and an `Undo` takes it back. The page shows
 * their counts ("3 likes", "1 boost").
 */
export type ReactionKind = 'like' | 'boost'

const author = 'social'

export const reactionIdPrefix = 'reaction.'
const reactionId = (actor: string, kind: ReactionKind, postId: string) =>
  `${reactionIdPrefix}${createHash('sha256').update(`${kind} ${actor} ${postId}`).digest('hex').slice(0, 32)}`

/** The published post at `url` (`<siteUrl>/blog/<slug>`), if any. */
export async function postAt(
  content: SocialContent,
  siteUrl: string,
  url: URL,
): Promise<string | undefined> {
  if (url.origin !== new URL(siteUrl).origin) return undefined
  const match = /^\/blog\/([^/]+)$/.exec(url.pathname)
  if (!match) return undefined
  const id = await content.query<string | null>(
    '*[_type == "post" && slug.current == $slug && !(_id in path("drafts.**")) && !(_id in path("versions.**"))][0]._id',
    {slug: decodeURIComponent(match[1])},
  )
  return id ?? undefined
}

export async function addReaction(
  content: SocialContent,
  siteUrl: string,
  kind: ReactionKind,
  actor: URL,
  object: URL,
): Promise<void> {
  const postId = await postAt(content, siteUrl, object)
  if (!postId) return
  const _id = reactionId(actor.href, kind, postId)
  await content.mutate(
    [{createIfNotExists: {_id, _type: 'socialReaction', kind, postId, actor: actor.href}}],
    {author},
  )
}

export async function removeReaction(
  content: SocialContent,
  siteUrl: string,
  kind: ReactionKind,
  actor: URL,
  object: URL,
): Promise<void> {
  const postId = await postAt(content, siteUrl, object)
  if (!postId) return
  const _id = reactionId(actor.href, kind, postId)
  if (await content.getDocument(_id)) await content.mutate([{delete: {id: _id}}], {author})
}

/** A post's counts, for its page. */
export function reactionCounts(
  content: SocialContent,
  postId: string,
): Promise<{likes: number; boosts: number}> {
  return content.query(
    '{"likes": count(*[_type == "socialReaction" && postId == $postId && kind == "like"]), "boosts": count(*[_type == "socialReaction" && postId == $postId && kind == "boost"])}',
    {postId},
  )
}

/** "3 likes", "1 boost": the words with the number. */
export function countWords(n: number, kind: ReactionKind): string {
  return `${n} ${kind}${n === 1 ? '' : 's'}`
}
