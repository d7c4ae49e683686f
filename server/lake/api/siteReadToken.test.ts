import {randomBytes} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {getFrom, queryUrl} from '../../../test/support/fromAddress.ts'
import {siteReadHeaders} from './internal.ts'

// SITE_READ_TOKEN: what separate site processes (LAKE_URL) send so their renders are not capped
// as one visitor's, while they still read only what a visitor may.
const token = randomBytes(24).toString('base64url')
let server: LakeUnderTest

beforeAll(async () => {
  server = await startLakeUnderTest({siteReadToken: token, seed: true})
  await server.lake.mutate([{create: {_id: 'drafts.hidden', _type: 'post', title: 'Draft'}}])
})
afterAll(() => server.stop())

/** A query slow enough that three sent at once are in flight together; `n` keeps each apart. */
const slow = (n: number) =>
  queryUrl('', 'count($a[count($a[@==1])==0])', {a: Array.from({length: 500 + n}, () => 0)})

describe('SITE_READ_TOKEN', () => {
  it('lifts the per-address cap of 2 queries in flight for the site processes, and no one else', async () => {
    // Different queries each: an answer from the lake's response cache is never in flight.
    const send = (address: string, headers: Record<string, string>, from: number) =>
      Promise.all([0, 1, 2].map((i) => getFrom(`${server.url}${slow(from + i)}`, address, headers)))
    const site = await send('127.0.0.21', siteReadHeaders(token), 0)
    expect(site.map((answer) => answer.status)).toEqual([200, 200, 200])
    const visitor = await send('127.0.0.22', siteReadHeaders('x'.repeat(32)), 3)
    expect(visitor.filter((answer) => answer.status === 429)).toHaveLength(1)
  })

  it('reads with anonymous visibility: no drafts', async () => {
    const answer = await getFrom(
      `${server.url}${queryUrl('', 'count(*[_id in path("drafts.**")])', {})}`,
      '127.0.0.23',
      siteReadHeaders(token),
    )
    expect(JSON.parse(answer.body)).toMatchObject({result: 0})
  })
})
