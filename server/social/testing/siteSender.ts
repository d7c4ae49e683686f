import {createFederation, MemoryKvStore} from '@fedify/fedify'
import {isActor, Person, type Activity, type Actor} from '@fedify/vocab'
import {actorIdentifier} from '../actor.ts'
import {loadActorKeys} from '../keys.ts'

/**
 * Speaks as another instance's site actor, for what the product does not do itself (follow
 * someone, reply to a post): a Fedify federation in the test with that instance's actor path
 * and its own key file (DATA_DIR/social-keys.json), so each activity is signed by Fedify with
 * the key the instance's real actor publishes. It has no queue: Fedify sends at once.
 */
export async function siteSender(options: {siteUrl: string; dataDir: string}) {
  const keys = await loadActorKeys(options.dataDir)
  const federation = createFederation<void>({kv: new MemoryKvStore(), allowPrivateAddress: true})
  federation
    .setActorDispatcher('/social/{identifier}', (ctx, identifier) =>
      identifier === actorIdentifier
        ? new Person({id: ctx.getActorUri(identifier), inbox: ctx.getInboxUri(identifier)})
        : null,
    )
    .setKeyPairsDispatcher((_ctx, identifier) => (identifier === actorIdentifier ? keys : []))
  federation.setInboxListeners('/social/{identifier}/inbox', '/social/inbox')
  const ctx = () => federation.createContext(new URL(options.siteUrl), undefined)
  return {
    /** The instance's actor, as remote servers know it. */
    actorUri: () => ctx().getActorUri(actorIdentifier),
    /** Looks up an actor by URL or `@handle@host` through WebFinger. */
    async lookup(target: string): Promise<Actor> {
      const found = await ctx().lookupObject(target)
      if (!isActor(found)) throw new Error(`${target} is not an actor`)
      return found
    },
    /** Sends `activity`, signed as the instance's actor, to `recipient`'s inbox. */
    async send(recipient: Actor, activity: Activity): Promise<void> {
      await ctx().sendActivity({identifier: actorIdentifier}, recipient, activity)
    },
  }
}
