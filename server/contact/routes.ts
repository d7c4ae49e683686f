import type {Hono} from 'hono'
import {bodyLimit} from 'hono/body-limit'
import type {ServerConfig} from '../env.ts'
import {localContactAction} from '../../shared/siteConfig.ts'
import {maxFormBytes, readFields} from '../http/formFields.ts'
import {clientOf} from '../http/clientAddress.ts'
import {HttpError} from '../http/httpError.ts'
import type {Inbox} from './inbox.ts'
import type {RateLimiter} from '../util/rateLimit.ts'
import {contactPagePath, safeNext} from './redirect.ts'
import {tooManyRequests, wantsJson} from '../http/formRefusal.ts'
import {accept, contactPage, contactRefusal} from './respond.ts'
import {withSentMarker} from '../http/sentMarkers.ts'
import {validateSubmission} from './validate.ts'

/** FormSubmit's action, as the site's form posts to it (shared/siteConfig.ts). */
export const contactPath = localContactAction

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
      maxSize: maxFormBytes,
      onError: () => {
        throw contactRefusal(
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
      if (!body.ok) throw contactRefusal(body.status, body.message, contactPagePath)
      const next = typeof body.fields._next === 'string' ? body.fields._next : undefined
      const back = safeNext(next, siteUrl, c.req.url)
      const result = validateSubmission(body.fields)
      if (!result.ok) throw contactRefusal(400, result.message, back)
      const retryAfter = deps.limiter.take(client)
      if (retryAfter > 0)
        throw tooManyRequests(retryAfter, 'You have sent several messages in a short time.', {
          kind: 'contact-429',
          ...contactPage(back),
        })
      let stored
      try {
        stored = await deps.inbox.receive(result.submission, now())
      } catch (error) {
        // A full disk (the lake's 507) is said as such: the visitor can only come back later.
        const full = error instanceof HttpError && error.status === 507
        if (!full) console.error(`[contact] could not store a message from ${client}`, error)
        throw contactRefusal(
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
