import type {Hono} from 'hono'
import {registerSentMarkerRoute} from './sentMarkerRoute.ts'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {Inbox} from './inbox.ts'
import {mailSettings, smtpDeliver, type Deliver} from './mailer.ts'
import type {BackoffOptions} from '../util/backoff.ts'
import {Outbox} from './outbox.ts'
import {RateLimiter, type RateLimitOptions} from '../util/rateLimit.ts'
import {contactPagePath} from './redirect.ts'
import {contactRefusal} from './respond.ts'
import {contactPath, registerContactRoutes} from './routes.ts'

/** Seams for tests; the server passes none and gets the documented defaults. */
export interface ContactOptions {
  rateLimit?: RateLimitOptions
  backoff?: BackoffOptions
  /** Replaces SMTP delivery (e.g. to count attempts); SMTP_URL/CONTACT_TO still decide if mail is on. */
  deliver?: Deliver
  now?: () => Date
}

/**
 * The contact relay (docs/contact.md): POST /api/contact stores each message in the lake's
 * private inbox before answering, and an outbox worker mails it when SMTP is configured.
 * Without a lake (hosted mode) the form posts to CONTACT_ACTION; this route then forwards
 * stray posts there, or says plainly that it cannot take messages.
 */
export function mountContact(
  app: Hono,
  ctx: AppContext,
  options: ContactOptions = {},
): Feature | void {
  const {lake, config} = ctx
  if (!lake) {
    const action = config.contactAction
    app.post(contactPath, (c) => {
      if (action) return c.redirect(action, 307)
      throw contactRefusal(
        503,
        'The contact form is not available on this server right now. Please write by email instead.',
        contactPagePath,
      )
    })
    if (!action)
      console.warn('[contact] hosted mode without CONTACT_ACTION: /api/contact answers 503')
    return
  }
  const inbox = new Inbox(lake)
  const settings = mailSettings(config.smtpUrl, config.contactTo, config.siteUrl)
  let outbox: Outbox | undefined
  if (settings) {
    outbox = new Outbox(inbox, options.deliver ?? smtpDeliver(settings), options.backoff)
    outbox.start().catch((error) => console.error('[contact] could not resume the outbox', error))
    console.info(`[contact] mailing messages to ${settings.to.join(', ')} from ${settings.from}`)
  } else {
    console.info(
      '[contact] SMTP_URL and CONTACT_TO are not both set: messages are kept in the Studio inbox, not mailed',
    )
  }
  registerSentMarkerRoute(app)
  registerContactRoutes(app, {
    inbox,
    config,
    limiter: new RateLimiter(options.rateLimit),
    now: options.now,
    stored: (id) => outbox?.enqueue(id),
  })
  return {close: () => outbox?.close()}
}
