import type {Context} from 'hono'
import type {ContentfulStatusCode} from 'hono/utils/http-status'
import {wantsJson} from '../contact/respond.ts'
import {clientOf} from '../http/clientAddress.ts'
import {refusals} from '../http/log.ts'
import {plainPage, plainPageSecurityPolicy} from '../http/plainPage.ts'

const back = {href: '/', label: 'Back to the site'}

/**
 * A newsletter answer: `{success, message}` for a JSON caller, else a plain page sent with its
 * own Content-Security-Policy (no script; only this site may frame it: security review 3, I3).
 */
export function answer(
  c: Context,
  status: ContentfulStatusCode,
  title: string,
  message: string,
  extraHtml?: string,
): Response {
  c.header('Cache-Control', 'no-store')
  if (wantsJson(c)) return c.json({success: status < 400, message}, status)
  c.header('Content-Security-Policy', plainPageSecurityPolicy)
  return c.html(
    plainPage({
      title,
      paragraphs: [message],
      role: status < 400 ? 'status' : 'alert',
      back,
      extraHtml,
    }),
    status,
  )
}

/**
 * A refusal: its answer, and one line in the summarising refusal log (server/http/log.ts) per
 * client and `reason` a minute, so a flood of bad links cannot grow the log (review 3, L1).
 * `reason` is one of a few fixed phrases, never the visitor's input.
 */
export function refuse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  reason: string,
): Response {
  const client = clientOf(c).key
  refusals.refuse(
    client,
    `newsletter ${status} ${reason}`,
    `[newsletter] ${status} from ${client}: ${reason}`,
  )
  return answer(c, status, 'That did not work', message)
}

/** A 429 with Retry-After and the wait in minutes. */
export function limited(c: Context, retryAfter: number, reason: string): Response {
  c.header('Retry-After', String(retryAfter))
  const minutes = Math.ceil(retryAfter / 60)
  return refuse(
    c,
    429,
    `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    reason,
  )
}
