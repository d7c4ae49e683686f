import type {Context} from 'hono'
import {clientOf} from '../../http/clientAddress.ts'
import {refusals, safe} from '../../http/log.ts'
import {LakeError} from '../errors.ts'
import {type QueueFullError, transformRetryAfterSeconds} from './transformQueue.ts'

/** 429 for a client over its share of the queue, 503 when the queue is full: both with Retry-After. */
export function queueRefusal(c: Context, error: QueueFullError): LakeError {
  const status = error.scope === 'client' ? 429 : 503
  const client = clientOf(c).key
  refusals.refuse(
    client,
    `image-${error.scope}`,
    `[images] ${status} GET ${safe(c.req.path)} from ${client}: ${error.message}`,
  )
  c.header('retry-after', String(transformRetryAfterSeconds))
  c.header('cache-control', 'no-store')
  const type = status === 429 ? 'tooManyRequests' : 'serviceUnavailable'
  return new LakeError(status, type, `${error.message}; retry in ${transformRetryAfterSeconds} s`)
}

/** 429 for a client over its budget of cold transforms per minute (coldBudget.ts). */
export function budgetRefusal(c: Context, retryAfter: number): LakeError {
  c.header('retry-after', String(retryAfter))
  c.header('cache-control', 'no-store')
  return new LakeError(
    429,
    'tooManyRequests',
    `Too many new image variants from this client; retry in ${retryAfter} s`,
  )
}
