import {createServer} from 'node:http'
import {Hono} from 'hono'
import {mountForward} from '../../server/forward/feature.ts'

/**
 * A content process that has not answered yet: each request it receives waits until the test
 * releases it (`held[i]()`, a 200 with `{}`). For the forwarder's bounds (server/forward/).
 */
export interface HeldUpstream {
  /** http://127.0.0.1:port */
  url: string
  /** One release per request received, in arrival order. */
  held: Array<() => void>
  /** Resolves once `count` requests have arrived (at once if they have). */
  holding(count: number): Promise<void>
  close(): Promise<void>
}

export async function startHeldUpstream(): Promise<HeldUpstream> {
  const held: Array<() => void> = []
  const waiters: Array<{count: number; resolve: () => void}> = []
  const upstream = createServer((_req, res) => {
    held.push(() => res.writeHead(200, {'content-type': 'application/json'}).end('{}'))
    for (const waiter of waiters.filter((w) => held.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const address = upstream.address()
  if (address === null || typeof address === 'string') throw new Error('not a TCP listener')
  return {
    url: `http://127.0.0.1:${address.port}`,
    held,
    holding: (count) =>
      held.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({count, resolve})),
    async close() {
      upstream.closeAllConnections()
      await new Promise((resolve) => upstream.close(resolve))
    },
  }
}

/** A content read a site process forwards. */
export const forwardedRead = 'http://site.test/v2023-07-29/data/query/production?query=1'

/**
 * A site process's forwarder (server/forward/) on a Hono app, to a held upstream where
 * `inFlight` forwarded reads already wait (`waiting`, answered once released).
 */
export async function forwarderHolding(inFlight: number) {
  const upstream = await startHeldUpstream()
  const app = new Hono()
  mountForward(app, upstream.url)
  const waiting = Array.from({length: inFlight}, () => app.request(forwardedRead))
  await upstream.holding(inFlight)
  return {upstream, held: upstream.held, app, waiting}
}
