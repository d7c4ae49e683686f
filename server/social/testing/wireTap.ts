import {createServer, request as httpRequest, type Server} from 'node:http'

/** One request that went through the tap, as the server behind it answered it. */
export interface Tapped {
  method: string
  path: string
  status: number
  /** The JSON body of a POST (an activity), else undefined. */
  activity: {id?: string; type?: string; object?: unknown} | undefined
}

function parse(body: Buffer): Tapped['activity'] {
  try {
    const json: unknown = JSON.parse(body.toString('utf8'))
    return typeof json === 'object' && json !== null ? json : undefined
  } catch {
    return undefined
  }
}

/**
 * A plain HTTP relay in front of a whole server, recording every request and the status the
 * server answered: what a second instance's inbox really received over the wire, once per
 * delivery (a retry would show twice). The instance's SITE_URL is the tap's address, so every
 * id it hands out leads through here. `target` is set once the server behind listens.
 */
export async function startWireTap() {
  const tapped: Tapped[] = []
  const waiters = new Set<() => void>()
  let target: URL | undefined
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (!target) {
        res.writeHead(503).end()
        return
      }
      const body = Buffer.concat(chunks)
      const forwarded = httpRequest(
        new URL(req.url ?? '/', target),
        {method: req.method, headers: req.headers},
        (answer) => {
          tapped.push({
            method: req.method ?? 'GET',
            path: new URL(req.url ?? '/', 'http://tap').pathname,
            status: answer.statusCode ?? 0,
            activity: req.method === 'POST' ? parse(body) : undefined,
          })
          for (const wake of waiters) wake()
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      forwarded.on('error', () => res.writeHead(502).end())
      forwarded.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the tap did not listen')
  return {
    url: `http://127.0.0.1:${address.port}`,
    tapped,
    /** Where to relay to: the whole server's own listener. */
    relayTo(url: string) {
      target = new URL(url)
    },
    /** Activities POSTed to an inbox and accepted (2xx) by the server behind. */
    delivered(): Array<NonNullable<Tapped['activity']>> {
      return tapped.flatMap((t) =>
        t.method === 'POST' && /\/inbox$/.test(t.path) && t.status < 300 && t.activity
          ? [t.activity]
          : [],
      )
    },
    /** Resolves once `test` holds of what went through. */
    async until(test: () => boolean): Promise<void> {
      while (!test()) {
        let wake = () => {}
        await new Promise<void>((resolve) => waiters.add((wake = resolve)))
        waiters.delete(wake)
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
