import type {Context} from 'hono'
import type {ContentfulStatusCode} from 'hono/utils/http-status'
import {errorResponse} from '../http/errorResponse.ts'
import {FormRefusal, retryWording, wantsJson} from '../http/formRefusal.ts'
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
 * A refusal, answered by the app's one responder (server/http/formRefusal.ts): one line in the
 * summarising refusal log per client and `reason` a minute, so a flood of bad links cannot grow
 * the log (review 3, L1). `reason` is one of a few fixed phrases, never the visitor's input.
 */
export function refuse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  reason: string,
  retryAfter?: number,
): Response {
  const kind = `newsletter ${status} ${reason}`
  return errorResponse(
    new FormRefusal(status, message, {kind, title: 'That did not work', back, retryAfter}),
    c,
  )
}

/** A 429 with Retry-After, saying when to come back. */
export function limited(c: Context, retryAfter: number, reason: string): Response {
  return refuse(c, 429, `Too many requests. ${retryWording(retryAfter)}`, reason, retryAfter)
}
