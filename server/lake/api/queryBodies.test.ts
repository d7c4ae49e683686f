import {request, type ClientRequest, type IncomingMessage} from 'node:http'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {getFrom, postFrom, queryUrl} from '../../../test/support/fromAddress.ts'
import {
  maxAnonymousBodiesAtOnce,
  maxAnonymousQueryBodyBytes,
  maxTrustedQueryBodyBytes,
} from './queryBodies.ts'

// Security review 3, M3: flat 1 MiB anonymous bodies from 16 addresses kept the main thread
// reading and parsing them. Visitors' bodies are now small, and only so many at once.
let t: LakeUnderTest

beforeAll(async () => {
  t = await startLakeUnderTest()
  await t.owner.create({_id: 'one', _type: 'note'})
})
afterAll(() => t.stop())

const queryPath = '/v2025-02-19/data/query/production'
/** A flat body of `bytes` or so: a query and one long string param, as in the review. */
const flatBody = (bytes: number) =>
  JSON.stringify({query: 'length($a)', params: {a: 'x'.repeat(bytes - 40)}})

describe('visitors’ POSTed queries', () => {
  it(`are refused over ${maxAnonymousQueryBodyBytes / 1024} KiB with a Sanity-shaped 413; the owner's are not`, async () => {
    const body = flatBody(100 * 1024)
    const anonymous = await t.fetch(queryPath, {method: 'POST', body})
    expect(anonymous.status).toBe(413)
    expect(await anonymous.json()).toMatchObject({error: {type: 'requestEntityTooLarge'}})
    const owner = await t.fetch(queryPath, {method: 'POST', body, token: t.token})
    expect(owner.status).toBe(200)
    expect(await owner.json()).toMatchObject({result: 100 * 1024 - 40})
    const ownerTooLarge = await t.fetch(queryPath, {
      method: 'POST',
      body: flatBody(maxTrustedQueryBodyBytes + 1024),
      token: t.token,
    })
    expect(ownerTooLarge.status).toBe(413)
    // What @sanity/client POSTs for a visitor (a query too long for a URL) still fits.
    const long = 'y'.repeat(30_000)
    expect(await t.anon.fetch('length($long)', {long})).toBe(30_000)
  })

  it(`are read ${maxAnonymousBodiesAtOnce} at once across all addresses; past that a 503 with Retry-After, while GETs and the owner pass`, async () => {
    const body = flatBody(32 * 1024)
    // Bodies still arriving, from 2 connections each of several addresses: each holds a place.
    const holders = Array.from({length: maxAnonymousBodiesAtOnce}, (_, i) =>
      heldPost(`${t.url}${queryPath}`, `127.0.3.${1 + Math.floor(i / 2)}`, body),
    )
    // Once every place is held, a visitor's complete POST from an address of its own is refused.
    let refused: Awaited<ReturnType<typeof postFrom>> | undefined
    await vi.waitFor(
      async () => {
        refused = await postFrom(`${t.url}${queryPath}`, '127.0.4.1', flatBody(1024))
        expect(refused.status).toBe(503)
      },
      {timeout: 15_000, interval: 50},
    )
    expect(refused?.headers['retry-after']).toBe('1')
    expect(JSON.parse(refused?.body ?? '')).toMatchObject({error: {type: 'serviceUnavailable'}})
    // A GET carries its query in its head; the owner has a lane of their own.
    expect((await getFrom(queryUrl(t.url, 'count(*)'), '127.0.4.1')).status).toBe(200)
    const owner = await t.fetch(queryPath, {method: 'POST', body, token: t.token})
    expect(owner.status).toBe(200)

    // The held bodies, once complete, are answered, and their places are free again.
    const answers = await Promise.all(holders.map((holder) => holder.finish()))
    expect(answers).toEqual(Array(maxAnonymousBodiesAtOnce).fill(200))
    expect((await postFrom(`${t.url}${queryPath}`, '127.0.4.1', flatBody(1024))).status).toBe(200)
  })
})

/** A POST from `localAddress` that sends half its declared body and waits to send the rest. */
function heldPost(url: string, localAddress: string, body: string) {
  const bytes = Buffer.from(body)
  let rest = () => {}
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    const req: ClientRequest = request(url, {
      method: 'POST',
      localAddress,
      agent: false,
      headers: {'content-type': 'application/json', 'content-length': String(bytes.length)},
    })
    req.on('response', resolve)
    req.on('error', reject)
    req.write(bytes.subarray(0, bytes.length / 2))
    rest = () => req.end(bytes.subarray(bytes.length / 2))
  })
  return {
    async finish(): Promise<number> {
      rest()
      const res = await answered
      res.resume()
      return res.statusCode ?? 0
    },
  }
}
