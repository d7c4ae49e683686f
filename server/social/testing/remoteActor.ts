import {createServer, type Server} from 'node:http'
import {getRequestListener} from '@hono/node-server'
import {createFederation, generateCryptoKeyPair, MemoryKvStore, signRequest} from '@fedify/fedify'
import {Activity, Endpoints, Follow, Image, Person, Undo} from '@fedify/vocab'

/** What the remote inbox received, in order: the activity's type, id and object id. */
export interface Received {
  type: string
  id: string | undefined
  objectId: string | undefined
  json: unknown
}

/**
 * Another fediverse server for the tests, on loopback: Fedify too (its own signatures,
 * WebFinger and inbox), one account `reader` that follows, unfollows and replies, and records
 * what its inbox gets. With `sharedInbox`, its actors name a shared inbox (as Mastodon's do).
 */
export async function startRemoteActor(options: {names?: string[]} = {}) {
  const names = options.names ?? ['reader']
  const received: Received[] = []
  const waiters = new Set<() => void>()
  const keys = new Map<string, CryptoKeyPair[]>()
  for (const name of names) keys.set(name, [await generateCryptoKeyPair('RSASSA-PKCS1-v1_5')])
  const federation = createFederation<void>({kv: new MemoryKvStore(), allowPrivateAddress: true})
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (!keys.has(identifier)) return null
      const pairs = await ctx.getActorKeyPairs(identifier)
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: `Reader ${identifier}`,
        // An avatar on this server, as every Mastodon account has: readers must never load it.
        icon: new Image({
          url: new URL(`/avatars/${identifier}.png`, ctx.origin),
          mediaType: 'image/png',
        }),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({sharedInbox: ctx.getInboxUri()}),
        publicKey: pairs[0]?.cryptographicKey ?? null,
      })
    })
    .setKeyPairsDispatcher((_ctx, identifier) => keys.get(identifier) ?? [])
  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Activity, async (ctx, activity) => {
      received.push({
        type: activity.constructor.name,
        id: activity.id?.href,
        objectId: activity.objectId?.href,
        json: await activity.toJsonLd(),
      })
      for (const wake of waiters) wake()
    })
  /** The paths others fetched (GET) from this server: its actor, its key. */
  const fetched: string[] = []
  const server: Server = createServer(
    getRequestListener((request) => {
      if (request.method === 'GET') fetched.push(new URL(request.url).pathname)
      return federation.fetch(request, {
        contextData: undefined,
        onNotFound: () => new Response('', {status: 404}),
      })
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the remote did not listen')
  const origin = `http://127.0.0.1:${address.port}`
  const ctx = () => federation.createContext(new URL(origin), undefined)

  const lookup = async (url: string) => {
    const found = await ctx().lookupObject(url)
    if (!found || !(found instanceof Person)) throw new Error(`${url} is not an actor`)
    return found
  }

  return {
    origin,
    received,
    fetched,
    actorUrl: (name = 'reader') => `${origin}/users/${name}`,
    /** Resolves once `test` holds of what was received. */
    async until(test: (all: Received[]) => boolean): Promise<void> {
      while (!test(received))
        await new Promise<void>((resolve) => waiters.add(resolve)).finally(() => waiters.clear())
    },
    async follow(target: string, name = 'reader'): Promise<Follow> {
      const actor = await lookup(target)
      const follow = new Follow({
        id: new URL(`${origin}/users/${name}#follow-${crypto.randomUUID()}`),
        actor: ctx().getActorUri(name),
        object: actor.id,
      })
      await ctx().sendActivity({identifier: name}, actor, follow)
      return follow
    },
    async unfollow(target: string, follow: Follow, name = 'reader'): Promise<void> {
      const actor = await lookup(target)
      await ctx().sendActivity(
        {identifier: name},
        actor,
        new Undo({
          id: new URL(`${origin}/users/${name}#undo-${crypto.randomUUID()}`),
          actor: ctx().getActorUri(name),
          object: follow,
        }),
      )
    },
    /** Sends any activity from `name` to the actor at `target`. */
    async send(target: string, activity: Activity, name = 'reader'): Promise<void> {
      await ctx().sendActivity({identifier: name}, await lookup(target), activity)
    },
    /**
     * POSTs raw JSON (a recorded activity, byte for byte: Fedify's own serialization would drop
     * the fields it does not know) to `inbox`, signed by Fedify's `signRequest` (draft-cavage)
     * with the key `name`'s actor publishes. `tamper` changes the body after signing.
     */
    async postSigned(
      inbox: string,
      json: string,
      options: {name?: string; tamper?: (json: string) => string} = {},
    ): Promise<Response> {
      const name = options.name ?? 'reader'
      const pair = keys.get(name)?.[0]
      if (!pair) throw new Error(`no actor ${name}`)
      const request = new Request(inbox, {
        method: 'POST',
        headers: {'content-type': 'application/activity+json'},
        body: json,
      })
      const signed = await signRequest(
        request,
        pair.privateKey,
        new URL(`${origin}/users/${name}#main-key`),
      )
      if (!options.tamper) return fetch(signed)
      return fetch(inbox, {method: 'POST', headers: signed.headers, body: options.tamper(json)})
    },
    actorUri: (name = 'reader') => ctx().getActorUri(name),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
