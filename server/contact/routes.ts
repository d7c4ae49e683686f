import type {Hono} from 'hono'
import {bodyLimit} from 'hono/body-limit'
import type {ServerConfig} from '../env.ts'
import {maxBodyBytes, readFields} from './body.ts'
import {clientOf} from '../http/clientAddress.ts'
import {refusals} from '../http/log.ts'
import {HttpError} from '../http/httpError.ts'
import type {Inbox} from './inbox.ts'
import type {RateLimiter} from '../util/rateLimit.ts'
import {contactPagePath, safeNext} from './redirect.ts'
import {accept, refuse, wantsJson} from './respond.ts'
import {withSentMarker} from '../http/sentMarkers.ts'
import {validateSubmission} from './validate.ts'

export const contactPath = '/api/contact'

export interface RelayDeps {
  inbox: Inbox
  limiter: RateLimiter
  config: ServerConfig
  /** Called with the id of each stored non-spam message, after it is durable. */
  stored(id: string): void
  /** Injectable clock for receivedAt. */
  now?: () => Date
}

/**
 * POST /api/contact: FormSubmit's fields in, the message durably in the inbox, then the answer
 * (issue #5). Every refusal is a 4xx that stores nothing and is logged with the reason.
 */
export function registerContactRoutes(app: Hono, deps: RelayDeps): void {
  const now = deps.now ?? (() => new Date())
  app.post(
    contactPath,
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) => {
        console.warn(`[contact] 413 from ${clientOf(c).key}: body over ${maxBodyBytes} bytes`)
        return refuse(
          c,
          413,
          'Your message is too long to send. Please shorten it and try again.',
          contactPagePath,
        )
      },
    }),
    async (c) => {
      const client = clientOf(c).key
      const siteUrl = deps.config.siteUrl
      const body = await readFields(c.req.raw)
      if (!body.ok) {
        console.warn(`[contact] ${body.status} from ${client}: ${body.message}`)
        return refuse(c, body.status, body.message, contactPagePath)
      }
      const next = typeof body.fields._next === 'string' ? body.fields._next : undefined
      const back = safeNext(next, siteUrl, c.req.url)
      const result = validateSubmission(body.fields)
      if (!result.ok) {
        console.warn(`[contact] 400 from ${client}: ${result.message}`)
        return refuse(c, 400, result.message, back)
      }
      const retryAfter = deps.limiter.take(client)
      if (retryAfter > 0) {
        console.warn(`[contact] 429 for ${client}: over ${deps.limiter.limit} messages`)
        c.header('Retry-After', String(retryAfter))
        const minutes = Math.ceil(retryAfter / 60)
        const message = `You have sent several messages in a short time. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
        return refuse(c, 429, message, back)
      }
      let stored
      try {
        stored = await deps.inbox.receive(result.submission, now())
      } catch (error) {
        // A full disk (the lake's 507) is said as such: the visitor can only come back later.
        const full = error instanceof HttpError && error.status === 507
        if (full) refusals.refuse(client, 'contact-507', `[contact] 507 for ${client}: disk full`)
        else console.error(`[contact] could not store a message from ${client}`, error)
        return refuse(
          c,
          full ? 507 : 500,
          full
            ? 'Your message could not be saved: the server is out of storage. Please try again later.'
            : 'Your message could not be saved. Please try again in a moment.',
          back,
        )
      }
      console.info(`[contact] stored ${stored._id} (${stored.status}) from ${client}`)
      // A bot that filled the honeypot gets the same answer as a person, and no mail is sent.
      if (stored.status === 'pending') deps.stored(stored._id)
      // A native post comes back with a one-time marker, for which the page shows the toast.
      return accept(c, wantsJson(c) ? back : withSentMarker(back))
    },
  )
}
