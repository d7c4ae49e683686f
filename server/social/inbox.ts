import type {Federation, InboxContext} from '@fedify/fedify'
import {Accept, Follow, isActor, Undo, type Actor} from '@fedify/vocab'
import {actorIdentifier} from './actor.ts'
import type {Followers} from './followers.ts'

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
export function registerInbox(federation: Federation<void>, followers: Followers): void {
  federation
    .setInboxListeners('/social/{identifier}/inbox', '/social/inbox')
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return
      const target = ctx.parseUri(follow.objectId)
      if (target?.type !== 'actor' || target.identifier !== actorIdentifier) return
      const follower = await follow.getActor(ctx)
      if (!follower || !isActor(follower) || !follower.id || !follower.inboxId) return
      // An activity whose actor is not the signer was refused by Fedify already; this is the
      // object's own claim, checked again as cheap insurance.
      if (follower.id.href !== follow.actorId.href) return
      await followers.add({
        actor: follower.id.href,
        inbox: follower.inboxId.href,
        ...(follower.endpoints?.sharedInbox
          ? {sharedInbox: follower.endpoints.sharedInbox.href}
          : {}),
        ...(handleOf(follower) ? {handle: handleOf(follower)} : {}),
        ...(follower.name ? {name: follower.name.toString().slice(0, 200)} : {}),
        followId: follow.id.href,
        followedAt: new Date().toISOString(),
      })
      await sendAccept(ctx, follow, follower)
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx)
      if (!(object instanceof Follow) || !undo.actorId) return
      // Only the follower undoes its own follow.
      if (object.actorId?.href !== undo.actorId.href) return
      await followers.remove(undo.actorId.href)
    })
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
