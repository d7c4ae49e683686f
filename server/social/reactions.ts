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

/** What a `Like`, an `Announce` or their `Undo` names: the content, the site, kind, who, and what. */
type ReactionArgs = [
  content: SocialContent,
  siteUrl: string,
  kind: ReactionKind,
  actor: URL,
  object: URL,
]

/**
 * The reaction an activity names: its document id and post, if the object is a published post
 * of this site (a like of anything else is not ours to count). `Like` and its `Undo` find the
 * same document by the same hash.
 */
async function reactionOf(
  ...[content, siteUrl, kind, actor, object]: ReactionArgs
): Promise<{_id: string; postId: string} | undefined> {
  const postId = await postAt(content, siteUrl, object)
  return postId ? {_id: reactionId(actor.href, kind, postId), postId} : undefined
}

/** Counts the account's like or boost of a post once, however often it is sent. */
export async function addReaction(...args: ReactionArgs): Promise<void> {
  const reaction = await reactionOf(...args)
  if (!reaction) return
  const [content, , kind, actor] = args
  const {_id, postId} = reaction
  await content.mutate(
    [{createIfNotExists: {_id, _type: 'socialReaction', kind, postId, actor: actor.href}}],
    {author},
  )
}

/** Takes the account's like or boost back (an `Undo`). */
export async function removeReaction(...args: ReactionArgs): Promise<void> {
  const reaction = await reactionOf(...args)
  const [content] = args
  if (reaction && (await content.getDocument(reaction._id)))
    await content.mutate([{delete: {id: reaction._id}}], {author})
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
