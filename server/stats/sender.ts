import {failures} from '../http/log.ts'
import {messageOf} from '../util/messageOf.ts'
import {ingestPath} from './ingest.ts'
import type {Batch} from './tally.ts'

/**
 * Batches a site process keeps while the content process cannot be reached: 720 are an hour of
 * 5-second batches. Past it the oldest are dropped, and the drop is logged with its count, so
 * the backlog never grows without limit.
 */
export const maxBacklog = 720

/** How long one send may take before it is given up and retried with the next batch. */
const sendTimeoutMs = 10_000

/**
 * A site process's sink (flusher.ts): each batch is POSTed to the content process's
 * `/api/stats/ingest` with `STATS_TOKEN`; what fails stays in a bounded backlog, sent first, in
 * order, with the next batch.
 */
export function remoteSink(
  lakeUrl: string,
  token: string,
  limit = maxBacklog,
): (batch: Batch) => Promise<void> {
  const backlog: Batch[] = []
  let dropped = 0
  return async (batch) => {
    backlog.push(batch)
    if (backlog.length > limit) {
      const over = backlog.length - limit
      backlog.splice(0, over)
      dropped += over
      console.warn(
        `[stats] the content process is unreachable: dropped the ${over} oldest batch(es) (${dropped} so far)`,
      )
    }
    while (backlog.length > 0) {
      try {
        const response = await fetch(`${lakeUrl}${ingestPath}`, {
          method: 'POST',
          headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
          body: JSON.stringify(backlog[0]),
          signal: AbortSignal.timeout(sendTimeoutMs),
        })
        await response.arrayBuffer()
        // A refusal (a wrong token, a bad batch) will not be accepted later either.
        if (response.status >= 400 && response.status < 500) {
          console.error(
            `[stats] the content process refused a batch (${response.status}): dropped; is STATS_TOKEN the same on both?`,
          )
        } else if (!response.ok) throw new Error(`answered ${response.status}`)
      } catch (error) {
        // Once a minute in full, then a count (server/http/log.ts): an outage is one line a minute.
        failures.refuse(
          '*',
          'stats-send',
          `[stats] a batch could not reach the content process (${messageOf(error)}): ${backlog.length} kept, retried in a few seconds`,
        )
        return
      }
      backlog.shift()
    }
  }
}
