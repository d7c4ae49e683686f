import type {Hono} from 'hono'
import {checkDataset, requireIdentity} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import type {Doc} from '../types.ts'
import {storeOf} from '../lake.ts'

/**
 * Every document, drafts included, sorted by `_id` so that two exports of the same content are
 * byte-identical; each line is the stored JSON exactly, which `sanity dataset import` reads.
 */
export function* exportLines(lake: Lake, options: {types?: string[]} = {}): Generator<string> {
  const types = options.types && options.types.length > 0 ? new Set(options.types) : undefined
  const docs: Doc[] = storeOf(lake)
    .snapshot()
    .filter((doc) => !types || types.has(doc._type))
  // Code-unit order, not locale order: stable across machines.
  docs.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
  for (const doc of docs) yield `${JSON.stringify(doc)}\n`
}

export function typesParam(value: string | undefined): string[] | undefined {
  const types = value
    ?.split(',')
    .map((type) => type.trim())
    .filter(Boolean)
  return types && types.length > 0 ? types : undefined
}

/**
 * GET /v{version}/data/export/{dataset}[?types=a,b]: NDJSON, one document a line, streamed
 * (https://www.sanity.io/docs/http-reference/export). Needs a token: it includes drafts.
 */
export function registerExport(app: Hono, lake: Lake): void {
  app.get('/:version/data/export/:dataset', (c) => {
    checkDataset(c, lake)
    requireIdentity(c, lake)
    const lines = exportLines(lake, {types: typesParam(c.req.query('types'))})
    const encoder = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // About 64 kB per chunk: large datasets stream without building one big string.
        let chunk = ''
        for (let next = lines.next(); ; next = lines.next()) {
          if (next.done) {
            if (chunk) controller.enqueue(encoder.encode(chunk))
            controller.close()
            return
          }
          chunk += next.value
          if (chunk.length >= 64 * 1024) break
        }
        controller.enqueue(encoder.encode(chunk))
      },
      cancel() {
        lines.return(undefined)
      },
    })
    return new Response(body, {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'cache-control': 'private, no-store',
      },
    })
  })
}
