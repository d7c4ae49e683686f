import type {Hono} from 'hono'
import {checkDataset} from '../http/request.ts'
import type {Lake} from '../lake.ts'

/** What the lake names itself in `X-Sanity-Shard`: there is one store, not a cluster of shards. */
const shardName = 'local'

/**
 * `GET /v{version}/data/ping/{dataset}`: the document pane's latency reporter (sanity 6.16,
 * `reportLatency` in lib/datastores-*.js) fetches it once per opened document, with plain
 * `fetch` (no token), reads only the `X-Sanity-Shard` header and discards the body. Anything but
 * a 2xx is a console error in the Studio (docs/studio-protocol.md §b). The answer is a constant:
 * it reads no body, no query and no document, so it costs no more than the edge already bounds.
 */
export function registerDataPing(app: Hono, lake: Lake): void {
  app.get('/:version/data/ping/:dataset', (c) => {
    checkDataset(c, lake)
    return c.json('PONG', 200, {'x-sanity-shard': shardName, 'cache-control': 'no-store'})
  })
}
