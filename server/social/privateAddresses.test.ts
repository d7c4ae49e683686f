import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {followerId} from './followers.ts'
import {startRemoteActor} from './testing/remoteActor.ts'

/**
 * Without FEDERATION_ALLOW_PRIVATE=1 the site never fetches a loopback or private address: a
 * Follow signed by an actor on 127.0.0.1 cannot have its key fetched, so it is refused and
 * nothing is stored.
 */
describe('private addresses', () => {
  let server: TestServer
  let remote: Awaited<ReturnType<typeof startRemoteActor>>
  beforeAll(async () => {
    remote = await startRemoteActor()
    server = await startTestServer()
    // Starting the whole server on a loaded machine (two cores, many tests) takes a while.
  }, 60_000)
  afterAll(async () => {
    await server.stop()
    await remote.close()
  })

  it('are not fetched: a Follow from a loopback actor is refused and not stored', async () => {
    await expect(remote.follow(`${server.config.siteUrl}/social/site`)).rejects.toThrow(/401/)
    expect(server.lake!.getDocument(followerId(remote.actorUrl()))).toBeUndefined()
  })
})
