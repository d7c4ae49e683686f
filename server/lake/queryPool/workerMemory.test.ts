import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../../e2e/support/server.ts'
import {getFrom, queryUrl, type Answer} from '../testing/fromAddress.ts'
import {rssAfterWorkerLossMb, workerHeapMb} from './queryBudgets.ts'

// A query that exhausts its worker's heap, against the real server: a 4xx for it, answers for
// everyone else, a new worker in its place, and the process's memory back within its bound.
let server: Awaited<ReturnType<typeof startTestServer>>

beforeAll(async () => {
  server = await startTestServer({SEED: '0'})
})
afterAll(() => server.stop())

const rssMb = () => process.memoryUsage().rss / 2 ** 20

/** 4,000 projections, each of a new 40,000-number array: about 1.3 GB if it could finish. */
const hog = {
  query: 'count($a[]{"x": $b + $b}.x)',
  params: {
    a: Array.from({length: 4_000}, (_, i) => ({i})),
    b: Array.from({length: 20_000}, (_, i) => i),
  },
}

describe('a query that exhausts its worker’s memory', () => {
  it(`is a 4xx (the worker's heap is ${workerHeapMb} MiB); others are answered; the worker is replaced; RSS returns within ${rssAfterWorkerLossMb} MiB`, async () => {
    // Workers running, as on a server that has been up.
    expect((await getFrom(queryUrl(server.url, 'count(*)'), '127.0.0.41')).status).toBe(200)
    const before = rssMb()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20)
    // The owner's lane (10 s budget), so memory runs out before time does.
    const hogAnswer = fetch(`${server.url}/v2023-07-29/data/query/production`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: `Bearer ${server.lake!.token}`},
      body: JSON.stringify(hog),
    })
    let hogDone = false
    void hogAnswer.finally(() => (hogDone = true))
    const honest: Answer[] = []
    for (let i = 0; !hogDone || honest.length < 3; i++)
      honest.push(await getFrom(queryUrl(server.url, `count(*[_id == "m${i}"])`), '127.0.0.42'))

    const refused = await hogAnswer
    clearInterval(sampler)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({error: {type: 'queryTooExpensive'}})
    for (const answer of honest) {
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toMatchObject({result: 0})
    }
    // A new worker took its place: the pool is whole again and answers.
    await expect.poll(() => server.lake!.poolStatus().ready, {timeout: 10_000}).toBe(3)
    expect((await getFrom(queryUrl(server.url, 'count(*) + 1'), '127.0.0.43')).status).toBe(200)
    // The worker did fill its heap (here: 212 → 747 MiB), and that memory is given back.
    expect(peak).toBeGreaterThan(before + 128)
    await expect
      .poll(rssMb, {timeout: 10_000, interval: 200})
      .toBeLessThan(before + rssAfterWorkerLossMb)
  }, 40_000)
})
