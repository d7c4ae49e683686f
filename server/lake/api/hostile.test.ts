import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../../test/support/server.ts'
import type {Lake} from '../lake.ts'
import {getFrom, queryUrl, type Answer} from '../../../test/support/fromAddress.ts'
import {maxAnonymousStreams} from './openStreams.ts'
import {authOf} from '../lake.ts'

// No GROQ evaluation stalls the process: runaway queries and costly listen filters from several
// clients, against the real server, while an honest client and a page render keep their pace.
let server: Awaited<ReturnType<typeof startTestServer>>
let lake: Lake

beforeAll(async () => {
  server = await startTestServer()
  if (!server.lake) throw new Error('no local lake')
  lake = server.lake
})
afterAll(() => server.stop())

/** 400 zeros: three nested counts over them are ~64 M comparisons, about 10 s of groq-js. */
const zeros = Array.from({length: 400}, () => 0)
const runaway = 'count($a[count($a[count($a[@==1])==0])>0])'
const hostileFilter = `*[${runaway} > 0]`

const listenPath = (filter: string, params: Record<string, unknown> = {}) => {
  const search = new URLSearchParams({query: filter, includeResult: 'true'})
  for (const [name, value] of Object.entries(params)) search.set(`$${name}`, JSON.stringify(value))
  return `/v2023-07-29/data/listen/production?${search}`
}

/** Reads a server-sent-events body until it ends or `waitMs` passes; the event names seen. */
async function eventsOf(res: Response, waitMs: number): Promise<{names: string[]; ended: boolean}> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let ended = false
  const deadline = Date.now() + waitMs
  while (Date.now() < deadline) {
    const timer = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), deadline - Date.now()),
    )
    const next = await Promise.race([reader.read(), timer])
    if (next === 'timeout') break
    if (next.done) {
      ended = true
      break
    }
    text += decoder.decode(next.value)
  }
  void reader.cancel().catch(() => undefined)
  return {names: [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]), ended}
}

describe('runaway queries', () => {
  it('three clients sending runaways delay neither a fourth client past 1 s nor a page render', async () => {
    // A server that has been up has its workers running and its renderer loaded: one page view
    // does both (/blog itself stays unrendered until the attack runs).
    expect((await getFrom(`${server.url}/contact`, '127.0.0.6')).status).toBe(200)
    const attackers = ['127.0.0.2', '127.0.0.3', '127.0.0.4']
    const until = Date.now() + 6_000
    const attackerAnswers: Answer[] = []
    const attack = attackers.flatMap((address) =>
      [0, 1].map(async () => {
        while (Date.now() < until) {
          attackerAnswers.push(await getFrom(queryUrl(server.url, runaway, {a: zeros}), address))
        }
      }),
    )
    // Steady state: each attacker has had a runaway stopped (at the 2 s budget, or preempted)
    // and is in bad standing; until then it competes as an equal.
    await new Promise((resolve) => setTimeout(resolve, 2_200))
    const honest: Answer[] = []
    for (let i = 0; Date.now() < until - 500; i++) {
      // A new query each time: the answer cannot come from the response cache.
      honest.push(await getFrom(queryUrl(server.url, `count(*[_id == "p${i}"])`), '127.0.0.5'))
    }
    const page = await getFrom(`${server.url}/blog`, '127.0.0.6')
    await Promise.all(attack)

    expect(honest.length).toBeGreaterThan(3)
    for (const answer of honest) {
      expect(answer.status).toBe(200)
      expect(answer.ms).toBeLessThan(1_000)
    }
    expect(page.status).toBe(200)
    expect(page.ms).toBeLessThan(1_000)
    // Every runaway that ran is stopped with the 4xx @sanity/client does not retry; one that
    // waited too long for the one worker suspects share is told to come back later.
    for (const answer of attackerAnswers) {
      if (answer.status === 503) {
        expect(answer.headers['retry-after']).toBe('5')
        continue
      }
      expect(answer.status).toBe(400)
      expect(JSON.parse(answer.body)).toMatchObject({error: {type: 'queryTimeout'}})
    }
    expect(attackerAnswers.filter((answer) => answer.status === 400).length).toBeGreaterThan(3)
  }, 20_000)

  it('caps one client at 2 anonymous queries in flight: the third is a 429 with Retry-After', async () => {
    const url = queryUrl(server.url, runaway, {a: zeros})
    const answers = await Promise.all([0, 1, 2].map(() => getFrom(url, '127.0.0.7')))
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(1)
    expect(refused[0].headers['retry-after']).toBe('1')
    expect(JSON.parse(refused[0].body)).toMatchObject({error: {type: 'tooManyRequests'}})
  }, 20_000)

  it('answers a stopped runaway once: @sanity/client does not retry a queryTimeout', async () => {
    const started = Date.now()
    const error = await server.lake
      ?.query(runaway, {a: zeros}, {lane: 'anonymous', client: 'test'})
      .catch((e: unknown) => e)
    expect(error).toMatchObject({status: 400, type: 'queryTimeout'})
    const {createClient} = await import('@sanity/client')
    const anon = createClient({
      projectId: 'scriptorium',
      dataset: 'production',
      apiVersion: '2023-07-29',
      apiHost: server.url,
      useProjectHostname: false,
      useCdn: true,
    })
    await expect(anon.fetch(runaway, {a: zeros})).rejects.toMatchObject({statusCode: 400})
    // One 2 s budget, not several retries with backoff.
    expect(Date.now() - started).toBeLessThan(6_000)
  }, 20_000)
})

describe('costly listen filters', () => {
  it('refuses a filter over its budget with a 4xx while the process keeps answering', async () => {
    const pings: number[] = []
    let done = false
    const pinging = (async () => {
      while (!done) {
        // A request that needs no worker: it answers as fast as the event loop turns.
        const doc = await getFrom(`${server.url}/v2023-07-29/data/doc/production/x`, '127.0.0.9', {
          authorization: `Bearer ${lake.token}`,
        })
        pings.push(doc.ms)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    const started = Date.now()
    const res = await fetch(`${server.url}${listenPath(hostileFilter, {a: zeros})}`)
    const elapsed = Date.now() - started
    done = true
    await pinging
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({error: {type: 'queryTimeout'}})
    expect(elapsed).toBeLessThan(2_000)
    expect(pings.length).toBeGreaterThan(0)
    expect(Math.max(...pings)).toBeLessThan(200)
  })

  it('ends a stream whose filter turns costly on a real document, and keeps serving', async () => {
    // Cheap on the probe at open (it has no `zs`), costly on a document with 400 of them.
    const filter = '*[count(zs[count(^.zs[count(^.^.zs[@ == 1]) == 0]) > 0]) > 0]'
    const res = await fetch(`${server.url}${listenPath(filter)}`)
    expect(res.status).toBe(200)
    const events = eventsOf(res, 5_000)
    // The stream subscribed to commits before its headers were sent, so no wait is needed here.
    await lake.mutate([{createOrReplace: {_id: 'costly', _type: 'note', zs: zeros}}])
    // The process answers at once while the filter runs out its budget on a worker.
    const doc = await getFrom(`${server.url}/v2023-07-29/data/doc/production/costly`, '127.0.0.8', {
      authorization: `Bearer ${lake.token}`,
    })
    expect(doc.status).toBe(200)
    expect(doc.ms).toBeLessThan(100)
    const seen = await events
    expect(seen.names).toEqual(['welcome', 'channelError'])
    expect(seen.ended).toBe(true)
  })

  it(`caps a visitor at ${maxAnonymousStreams} open streams: the next is a 429 with Retry-After`, async () => {
    const controllers: AbortController[] = []
    const open = async () => {
      const controller = new AbortController()
      controllers.push(controller)
      return fetch(`${server.url}${listenPath('*[_type == "post"]')}`, {signal: controller.signal})
    }
    try {
      const accepted = []
      for (let i = 0; i < maxAnonymousStreams; i++) accepted.push(await open())
      expect(accepted.map((res) => res.status)).toEqual(accepted.map(() => 200))
      const refused = await open()
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(await refused.json()).toMatchObject({error: {type: 'tooManyRequests'}})
    } finally {
      for (const controller of controllers) controller.abort()
    }
  })
})

describe('revoked sessions', () => {
  it('ends an open listen stream at logout, before any event: a later draft never reaches it', async () => {
    const session = authOf(lake).createSession()
    const res = await fetch(`${server.url}${listenPath('*[_type == "secret"]')}`, {
      headers: {authorization: `Bearer ${session}`},
    })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('event: welcome')) {
      const next = await reader.read()
      if (next.done) throw new Error('the stream ended before its welcome')
      text += decoder.decode(next.value)
    }
    const revokedAt = Date.now()
    authOf(lake).revokeSession(session)
    // The stream ends on its own: no commit or keep-alive is needed to notice the logout.
    for (let next = await reader.read(); !next.done; next = await reader.read())
      text += decoder.decode(next.value)
    expect(Date.now() - revokedAt).toBeLessThan(1_000)
    await lake.mutate([{create: {_id: 'drafts.s1', _type: 'secret', text: 'private'}}])
    expect(text).not.toContain('event: mutation')
  })
})
