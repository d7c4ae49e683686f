import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {PresenceClient as Client} from '../../../test/support/presenceClient.ts'
import {maxSocketsPerClient} from './socketGuard.ts'

// The lake's presence socket alone, over ws. The app's two listeners in front of it, and a
// malformed upgrade path at the edge, are tested in server/http/upgrade.test.ts.

describe('the presence socket', () => {
  let server: LakeUnderTest
  let origin: string
  const clients: Client[] = []
  const connect = async (localAddress?: string) => {
    const client = new Client(server.url, {origin, localAddress})
    clients.push(client)
    await client.opened()
    return client
  }

  beforeAll(async () => {
    server = await startLakeUnderTest()
    origin = server.url
  })
  afterAll(async () => {
    for (const client of clients) client.ws.terminate()
    await server.stop()
  })

  it('refuses everything but authorization until a valid token is given', async () => {
    const client = await connect()
    expect((await client.call('presence_subscribe')).error?.code).toBe(4001)
    expect((await client.call('authorization', {authorization: 'Bearer wrong'})).error?.code).toBe(
      4001,
    )
    expect(
      (await client.call('authorization', {authorization: `Bearer ${server.token}`})).result,
    ).toBe(true)
  })

  it('broadcasts announcements, roll calls and disconnects to the other sessions', async () => {
    const [a, b] = [await connect(), await connect()]
    for (const client of [a, b])
      await client.call('authorization', {authorization: `Bearer ${server.token}`})
    const subA = (await a.call('presence_subscribe')).result
    await b.call('presence_subscribe')
    const locations = [
      {
        type: 'document',
        documentId: 'post-1',
        path: ['title'],
        lastActiveAt: new Date().toISOString(),
      },
    ]
    await b.call('presence_announce', {data: {sessionId: 'session-b', locations}})
    const state = await a.until((m) => m.params?.result.type === 'state')
    expect(state).toMatchObject({
      method: 'presence_subscription',
      params: {subscription: subA, result: {i: 'p-owner', m: {sessionId: 'session-b', locations}}},
    })
    expect(b.messages.some((m) => m.method === 'presence_subscription')).toBe(false)

    await b.call('presence_rollcall', {session: 'session-b'})
    await a.until((m) => m.params?.result.type === 'rollCall')
    b.ws.close()
    const gone = await a.until((m) => m.params?.result.type === 'disconnect')
    expect(gone.params?.result).toEqual({
      type: 'disconnect',
      i: 'p-owner',
      m: {session: 'session-b'},
    })
  })

  it("ignores a reloaded tab's late goodbye from its old socket once the new one announced the session", async () => {
    const [watcher, old, reloaded] = [await connect(), await connect(), await connect()]
    for (const client of [watcher, old, reloaded])
      await client.call('authorization', {authorization: `Bearer ${server.token}`})
    await watcher.call('presence_subscribe')
    const data = {
      sessionId: 'session-r',
      locations: [
        {type: 'document', documentId: 'post-1', path: [], lastActiveAt: new Date().toISOString()},
      ],
    }
    await old.call('presence_announce', {data})
    await reloaded.call('presence_announce', {data})
    await old.call('presence_disconnect', {session: 'session-r'})
    // The server handles messages in order: anything the stale goodbye caused reaches the
    // watcher before this roll call does.
    await reloaded.call('presence_rollcall', {session: 'session-r'})
    await watcher.until((m) => m.params?.result.type === 'rollCall')
    expect(watcher.messages.filter((m) => m.params?.result.type === 'disconnect')).toEqual([])
    await reloaded.call('presence_disconnect', {session: 'session-r'})
    const gone = await watcher.until((m) => m.params?.result.type === 'disconnect')
    expect(gone.params?.result).toEqual({
      type: 'disconnect',
      i: 'p-owner',
      m: {session: 'session-r'},
    })
  })

  it('refuses sockets from foreign origins and unknown methods', async () => {
    const foreign = new Client(server.url, {origin: 'https://evil.example'})
    clients.push(foreign)
    await expect(foreign.opened()).rejects.toThrow(/403/)
    const client = await connect()
    await client.call('authorization', {authorization: `Bearer ${server.token}`})
    expect((await client.call('presence_teleport')).error?.code).toBe(-32601)
  })

  it(`caps sockets per client at ${maxSocketsPerClient} (429), while another address still connects`, async () => {
    const held: Client[] = []
    for (let i = 0; i < maxSocketsPerClient; i++) held.push(await connect('127.0.0.3'))
    const over = new Client(server.url, {origin, localAddress: '127.0.0.3'})
    clients.push(over)
    await expect(over.opened()).rejects.toThrow(/429/)
    const other = await connect('127.0.0.4')
    expect(
      (await other.call('authorization', {authorization: `Bearer ${server.token}`})).result,
    ).toBe(true)
    for (const client of held) client.ws.terminate()
  })
})
