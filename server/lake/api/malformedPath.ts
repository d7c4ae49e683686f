import type {Context, Next} from 'hono'
import {clientOf} from '../../http/clientAddress.ts'
import {refusals, safe} from '../../http/log.ts'
import {badRequest} from '../errors.ts'
import {decodeSegment} from '../sessions/socketUpgrade.ts'

/**
 * Refuses a path with a malformed percent-escape (`%`, `%E0%A4%A`) with a Sanity-shaped 400.
 * Hono hands such a segment to the route undecoded, which would then look up a project,
 * dataset or user named `%E0`: a confusing 404 or an empty answer instead of "bad request".
 */
export async function refuseMalformedPath(c: Context, next: Next): Promise<void> {
  const path = new URL(c.req.url).pathname
  if (decodeSegment(path) === undefined) {
    const client = clientOf(c).key
    refusals.refuse(
      client,
      'malformed-path',
      `[studio] 400 ${c.req.method} ${safe(path)} from ${client}`,
    )
    throw badRequest('Malformed percent-escape in the URL path')
  }
  await next()
}
