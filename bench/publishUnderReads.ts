import {percentile} from './stats.ts'
import {timedGet} from './timedGet.ts'

/**
 * What the newsletter and social sections share: a publish that fans out to 1,000 readers (mails,
 * inbox POSTs) while `/blog` is read one request after another, against the same rule as the
 * hostile section (sending must not steal a reader's time). The audience is written first, `/blog`
 * is timed 10 s at rest, then the post is published and `/blog` is timed until every reader has
 * been sent to.
 */
export interface PublishUnderReads {
  /** The server's base URL and its owner token. */
  url: string
  token: string
  /** The documents that make the audience (subscribers, followers). */
  audience: unknown[]
  /** The post whose publish starts the fan-out. */
  post: Record<string, unknown>
  /** Resolves once every reader has been sent to; made before the publish, so nothing is missed. */
  sent: Promise<void>
}

export interface PublishFigures {
  /** From the publish's commit to the last reader sent to. */
  seconds: number
  /** `Date.now()` at the publish, to compare with the receivers' own clocks. */
  startWall: number
  /** `/blog` latencies in ms, at rest and while sending. */
  rest: number[]
  busy: number[]
  /** The target: p99 while sending ≤ max(2 × p99 at rest, 50 ms). */
  limit: number
  met: boolean
}

async function blogLatencies(url: string, until: () => boolean): Promise<number[]> {
  const times: number[] = []
  while (!until()) times.push((await timedGet(`${url}/blog`)).ms)
  return times
}

/** Times `/blog` at rest, publishes the post, and times `/blog` until `sent` resolves. */
export async function publishUnderReads(run: PublishUnderReads): Promise<PublishFigures> {
  const mutate = async (mutations: unknown[]) => {
    const res = await fetch(`${run.url}/v2023-07-29/data/mutate/production`, {
      method: 'POST',
      headers: {authorization: `Bearer ${run.token}`, 'content-type': 'application/json'},
      body: JSON.stringify({mutations}),
    })
    if (!res.ok) throw new Error(`mutate: ${res.status} ${await res.text()}`)
  }
  await mutate(run.audience.map((doc) => ({createOrReplace: doc})))
  const restStart = performance.now()
  const rest = await blogLatencies(run.url, () => performance.now() - restStart > 10_000)
  let sending = true
  const start = performance.now()
  const startWall = Date.now()
  await mutate([{createOrReplace: run.post}])
  const during = blogLatencies(run.url, () => !sending)
  await run.sent
  const seconds = (performance.now() - start) / 1000
  sending = false
  const busy = await during
  const limit = Math.max(2 * percentile(rest, 99), 50)
  return {seconds, startWall, rest, busy, limit, met: percentile(busy, 99) <= limit}
}
