import {timingSafeEqual, createHash} from 'node:crypto'
import type {Hono} from 'hono'
import {BodyTooLargeError, logTooLarge, readBody} from '../http/body.ts'
import {clientOf} from '../http/clientAddress.ts'
import {HttpError} from '../http/httpError.ts'
import {bearerOf} from '../http/ownerBearer.ts'
import {parseBatch} from './batchShape.ts'
import type {Batch} from './tally.ts'

export const ingestPath = '/api/stats/ingest'

/** A batch of `maxBatchRows` rows of JSON fits in far less; anything bigger is refused (413). */
export const maxIngestBytes = 4 * 1024 * 1024

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * `POST /api/stats/ingest` on the content process: a site process's batch (sender.ts),
 * authenticated with `STATS_TOKEN` as the bearer token (the same value on both; without it set,
 * every batch is refused). 401 without the token, 413 past `maxIngestBytes` (counted while the
 * body streams), 400 for anything but a well-formed batch; nothing is merged then.
 */
export function registerIngest(
  app: Hono,
  token: string | undefined,
  merge: (batch: Batch) => void,
): void {
  const expected = token === undefined ? undefined : digest(token)
  app.post(ingestPath, async (c) => {
    const presented = bearerOf(c)
    if (!expected || !presented || !timingSafeEqual(digest(presented), expected))
      throw new HttpError(401, 'Statistics batches need STATS_TOKEN.')
    let bytes: Uint8Array
    try {
      bytes = await readBody(c.req.raw, maxIngestBytes)
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error
      logTooLarge(clientOf(c).key, c.req.method, c.req.path, maxIngestBytes)
      throw new HttpError(413, 'That batch is too large.')
    }
    let value: unknown
    try {
      value = JSON.parse(new TextDecoder().decode(bytes))
    } catch {
      value = undefined
    }
    const batch = parseBatch(value)
    if (!batch) throw new HttpError(400, 'Not a batch of reader statistics.')
    merge(batch)
    return c.body(null, 204)
  })
}
