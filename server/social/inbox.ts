import type {Federation, InboxContext} from '@fedify/fedify'
import {
  Accept,
  Announce,
  Create,
  Delete,
  Follow,
  isActor,
  Like,
  Undo,
  Update,
  type Actor,
} from '@fedify/vocab'
import type {SocialContent} from './socialContent.ts'
import {actorIdentifier} from './actor.ts'
import type {Followers} from './followers.ts'
import {addReaction, removeReaction} from './reactions.ts'
import {deleteReply, storeReply} from './replies.ts'

/** `@name@host` of a remote actor, for the Studio's list. */
function handleOf(actor: Actor): string | undefined {
  const name = actor.preferredUsername
  if (!name || !actor.id) return undefined
  return `@${typeof name === 'string' ? name : name.toString()}@${actor.id.host}`
}

/**
 * What the inbox does with an activity Fedify has verified (its signature, and that its actor
 * owns the key): a `Follow` of the site is accepted at once and stored, its `Undo` removes the
 * follower. Replays (an activity id seen before) never get here: Fedify's idempotence check
 * drops them.
 */
export function registerInbox(
  federation: Federation<void>,
  followers: Followers,
  content: SocialContent,
): void {
  federation
    .setInboxListeners('/social/{identifier}/inbox', '/social/inbox')
    .on(Follow, (ctx, follow) => acceptFollow(ctx, follow, followers))
    .on(Undo, (ctx, undo) => undoActivity(ctx, undo, followers, content))
    .on(Like, async (ctx, like) => {
      if (like.actorId && like.objectId)
        await addReaction(content, ctx.origin, 'like', like.actorId, like.objectId)
    })
    .on(Announce, async (ctx, boost) => {
      if (boost.actorId && boost.objectId)
        await addReaction(content, ctx.origin, 'boost', boost.actorId, boost.objectId)
    })
    // Replies to the posts become pending comments (replies.ts); their authors may edit and
    // delete them.
    .on(Create, async (ctx, create) => {
      if (create.actorId)
        await storeReply(ctx, content, ctx.origin, create.actorId, await create.getObject(ctx))
    })
    .on(Update, async (ctx, update) => {
      if (update.actorId)
        await storeReply(
          ctx,
          content,
          ctx.origin,
          update.actorId,
          await update.getObject(ctx),
          true,
        )
    })
    .on(Delete, async (_ctx, activity) => {
      if (activity.actorId && activity.objectId)
        await deleteReply(content, activity.actorId, activity.objectId)
    })
}

/** A `Follow` of the site: stored, then accepted at once. */
async function acceptFollow(
  ctx: InboxContext<void>,
  follow: Follow,
  followers: Followers,
): Promise<void> {
  if (!follow.id || !follow.actorId || !follow.objectId) return
  const target = ctx.parseUri(follow.objectId)
  if (target?.type !== 'actor' || target.identifier !== actorIdentifier) return
  const follower = await follow.getActor(ctx)
  if (!follower || !isActor(follower) || !follower.id || !follower.inboxId) return
  // An activity whose actor is not the signer was refused by Fedify already; this is the
  // object's own claim, checked again as cheap insurance.
  if (follower.id.href !== follow.actorId.href) return
  const handle = handleOf(follower)
  await followers.add({
    actor: follower.id.href,
    inbox: follower.inboxId.href,
    ...(follower.endpoints?.sharedInbox ? {sharedInbox: follower.endpoints.sharedInbox.href} : {}),
    ...(handle ? {handle} : {}),
    ...(follower.name ? {name: follower.name.toString().slice(0, 200)} : {}),
    followId: follow.id.href,
    followedAt: new Date().toISOString(),
  })
  await sendAccept(ctx, follow, follower)
}

/** An `Undo` of a follow, like or boost: only the actor of the original undoes it. */
async function undoActivity(
  ctx: InboxContext<void>,
  undo: Undo,
  followers: Followers,
  content: SocialContent,
): Promise<void> {
  const object = await undo.getObject(ctx)
  if (!undo.actorId) return
  if (!(object instanceof Follow || object instanceof Like || object instanceof Announce)) return
  if (object.actorId?.href !== undo.actorId.href) return
  if (object instanceof Follow) await followers.remove(undo.actorId.href)
  else if (object.objectId)
    await removeReaction(
      content,
      ctx.origin,
      object instanceof Like ? 'like' : 'boost',
      undo.actorId,
      object.objectId,
    )
}

async function sendAccept(ctx: InboxContext<void>, follow: Follow, follower: Actor): Promise<void> {
  await ctx.sendActivity(
    {identifier: actorIdentifier},
    follower,
    new Accept({
      id: new URL(`#accept-${crypto.randomUUID()}`, ctx.getActorUri(actorIdentifier)),
      actor: ctx.getActorUri(actorIdentifier),
      object: follow,
    }),
  )
}
