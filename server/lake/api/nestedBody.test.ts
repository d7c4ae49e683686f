import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../../test/support/server.ts'
import {getFrom, postFrom, queryUrl, type Answer} from '../../../test/support/fromAddress.ts'
import {maxJsonDepth} from '../http/jsonDepth.ts'

// Security review 2, finding 1: one address POSTing deeply nested `params` on 32 connections
// stalled every page and got a 500 from a stack overflow on each.
let server: Awaited<ReturnType<typeof startTestServer>>

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.stop())

const queryPath = '/v2023-07-29/data/query/production'
/**
 * ~60 KB of `[[[…]]]`: far past the depth limit, and under a visitor's body cap (the review's
 * 600 KB is now a 413 before it is read, server/lake/api/queryBodies.ts).
 */
const nested = '['.repeat(30_000) + ']'.repeat(30_000)
const nestedBody = `{"query":"count(*[_id == $a])","params":{"a":${nested}}}`

describe('deeply nested JSON', () => {
  it('refuses nested params with a Sanity-shaped 400 while honest queries keep being answered', async () => {
    // The workers and the renderer are warm, as on a server that has been up.
    expect((await getFrom(`${server.url}/contact`, '127.0.0.11')).status).toBe(200)
    let attacking = true
    const attack = Promise.all(
      Array.from({length: 32}, () =>
        postFrom(`${server.url}${queryPath}`, '127.0.0.10', nestedBody),
      ),
    ).finally(() => (attacking = false))
    const honest: Answer[] = []
    for (let i = 0; attacking || honest.length < 3; i++) {
      // A new query each time: the answer cannot come from the response cache.
      honest.push(await getFrom(queryUrl(server.url, `count(*[_id == "n${i}"])`), '127.0.0.11'))
    }
    const attackAnswers = await attack

    for (const answer of honest) {
      expect(answer.status).toBe(200)
      // Alone, 32 such bodies parsed at once kept every answer waiting for seconds; with the slot
      // first, the attack costs reading two bodies. The bound leaves room for a busy machine.
      expect(answer.ms).toBeLessThan(2_000)
    }
    // Each is refused: for its depth, or for over the address's 2 queries in flight.
    for (const answer of attackAnswers) {
      expect([400, 429]).toContain(answer.status)
      const type = answer.status === 400 ? 'httpBadRequest' : 'tooManyRequests'
      expect(JSON.parse(answer.body)).toMatchObject({error: {type}})
    }
    const refused = attackAnswers.filter((answer) => answer.status === 400)
    expect(refused.length).toBeGreaterThan(0)
    expect(JSON.parse(refused[0].body).error.description).toContain(`deeper than ${maxJsonDepth}`)
  }, 20_000)

  it('refuses a nested GET parameter with a 400, and answers one at the limit', async () => {
    const deep = JSON.parse('['.repeat(maxJsonDepth + 1) + ']'.repeat(maxJsonDepth + 1)) as unknown
    const tooDeep = await getFrom(queryUrl(server.url, 'count($a)', {a: deep}), '127.0.0.12')
    expect(tooDeep.status).toBe(400)
    expect(JSON.parse(tooDeep.body)).toMatchObject({error: {type: 'httpBadRequest'}})
    const atLimit = JSON.parse('['.repeat(maxJsonDepth) + ']'.repeat(maxJsonDepth)) as unknown
    const fine = await getFrom(queryUrl(server.url, 'count($a)', {a: atLimit}), '127.0.0.12')
    expect(fine.status).toBe(200)
    expect(JSON.parse(fine.body)).toMatchObject({result: 1})
  })

  it('counts brackets inside strings as text, not depth', async () => {
    const body = JSON.stringify({query: 'length($a)', params: {a: '['.repeat(1000)}})
    const answer = await postFrom(`${server.url}${queryPath}`, '127.0.0.13', body)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({result: 1000})
  })
})
