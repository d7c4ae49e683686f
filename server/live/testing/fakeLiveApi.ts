import {createServer, type Server, type ServerResponse} from 'node:http'
import {apiVersion} from '../../../shared/constants.ts'

export {apiVersion}

function portOf(server: Server): number {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('not a TCP listener')
  return address.port
}
const eventsPath = `/v${apiVersion}/data/live/events/production`

/** What the fake answers one connection with: a status, or SSE frames (then it holds or ends). */
export type Script = {status: number} | {frames: string[]; end?: boolean}

export const frame = (event: string, data: unknown, id?: string) =>
  `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`

export interface FakeLiveApi {
  url: string
  /** The Last-Event-ID each connection presented (undefined: none). */
  connections: Array<string | undefined>
  /** The query addresses asked for (with `queriesTo`). */
  queries: URL[]
  /** Appends scripts for the next connections. */
  script(...scripts: Script[]): void
  /** Sends frames on the connection open now. */
  send(...frames: string[]): void
  /** Ends the connection open now (EventSource then reconnects with Last-Event-ID). */
  end(): void
  close(): Promise<void>
}

/**
 * A Live Content API on loopback, in the wire format of @sanity/client's own tests, scripted one
 * connection at a time. Queries go to `queriesTo` (a real lake) when given, each address kept in
 * `queries`, as a hosted project's API would take both; other paths (the CORS probe) get `{}`.
 */
export async function fakeLiveApi(options: {queriesTo?: string} = {}): Promise<FakeLiveApi> {
  const queries: URL[] = []
  const scripts: Script[] = []
  const connections: Array<string | undefined> = []
  let open: ServerResponse | undefined
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (options.queriesTo && path.includes('/data/query/')) {
      const target = new URL(req.url ?? '/', options.queriesTo)
      queries.push(target)
      void fetch(target).then(
        async (answer) =>
          res
            .writeHead(answer.status, {'content-type': 'application/json'})
            .end(await answer.text()),
        () => res.writeHead(502).end(),
      )
      return
    }
    if (path !== eventsPath) {
      // The client's CORS probe after a reconnect: no verdict either way.
      res.writeHead(200, {'content-type': 'application/json'}).end('{}')
      return
    }
    const lastEventId = req.headers['last-event-id']
    connections.push(typeof lastEventId === 'string' ? lastEventId : undefined)
    // Unscripted connections hang on without a word (the test says what comes next).
    const script = scripts.shift() ?? {frames: []}
    if ('status' in script) {
      res.writeHead(script.status, {'content-type': 'application/json'}).end('{}')
      return
    }
    res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'})
    res.write('retry: 20\n\n')
    for (const text of script.frames) res.write(text)
    if (script.end) res.end()
    else open = res
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${portOf(server)}`,
    connections,
    queries,
    script: (...more) => scripts.push(...more),
    send: (...frames) => {
      for (const text of frames) open?.write(text)
    },
    end: () => {
      open?.end()
      open = undefined
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
