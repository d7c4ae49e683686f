import type {Hono} from 'hono'
import {subscriptionsEnabled, type AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {RateLimiter, type RateLimitOptions} from '../util/rateLimit.ts'
import type {BackoffOptions} from '../util/backoff.ts'
import {touchesPublic, type Lake} from '../lake/index.ts'
import type {ServerConfig} from '../env.ts'
import {registerCsvExport} from './csvExport.ts'
import {Mailings} from './mailing.ts'
import {smtpSendMail, type SendMail} from './mailer.ts'
import {registerNewsletterRoutes} from './routes.ts'
import {senderName} from './senderName.ts'
import {loadNewsletterSecret} from './secret.ts'
import {SubscriptionMails} from './subscriptionMails.ts'
import {Subscribers} from './subscribers.ts'

/** Seams for tests; the server passes none and gets the documented defaults. */
export interface NewsletterOptions {
  send?: SendMail
  now?: () => Date
  clientRate?: RateLimitOptions
  backoff?: BackoffOptions
}

/** Subscribe posts per client: a person subscribes once; a few retries are plenty. */
export const defaultSubscribeRate = {limit: 5, windowMs: 10 * 60_000} as const
/** Link clicks (confirm, unsubscribe) per client. */
export const defaultLinkRate = {limit: 30, windowMs: 10 * 60_000} as const

/**
 * The newsletter (issue #26): email subscriptions with double opt-in and one-click unsubscribe,
 * stored as private documents in the lake. Off without SMTP_URL or in hosted mode: the routes
 * then do not exist and the site shows no form.
 */
export function mountNewsletter(
  app: Hono,
  ctx: AppContext,
  options: NewsletterOptions = {},
): Feature | void {
  const {lake, config} = ctx
  if (!lake || !subscriptionsEnabled(ctx) || !config.smtpUrl) return
  const secret = loadNewsletterSecret(config.dataDir)
  const now = options.now ?? (() => new Date())
  const subscribers = new Subscribers(lake)
  const smtp = options.send
    ? undefined
    : smtpSendMail(config.smtpUrl, config.siteUrl, () => senderName(lake))
  const send = options.send ?? smtp!.send
  const links = {
    // Read at each mail: SITE_URL's port is known only once the server listens.
    get siteUrl() {
      return config.siteUrl
    },
    secret,
    now,
  }
  const mails = new SubscriptionMails(send, links, subscribers)
  registerNewsletterRoutes(app, {
    subscribers,
    mails,
    secret,
    siteUrl: () => config.siteUrl,
    clientLimiter: new RateLimiter(options.clientRate ?? defaultSubscribeRate),
    linkLimiter: new RateLimiter(defaultLinkRate),
    domainLimiter: new RateLimiter({limit: config.newsletterConfirmPerHour, windowMs: 3_600_000}),
    now,
  })
  registerCsvExport(app, lake, subscribers, new RateLimiter(defaultLinkRate))
  const mailings = startMailings(lake, send, links, config, options.backoff)
  console.info(
    `[newsletter] subscriptions are on (SMTP_URL is set); new posts are mailed ${config.newsletterGraceMinutes} min after their first publish`,
  )
  return {
    close: async () => {
      await mailings.close()
      await mails.settle()
      smtp?.close()
    },
  }
}

/** New posts mailed to subscribers: looked for again at each public commit. */
function startMailings(
  lake: Lake,
  send: SendMail,
  links: ConstructorParameters<typeof Mailings>[0]['links'],
  config: ServerConfig,
  backoff: NewsletterOptions['backoff'],
): {close(): Promise<void>} {
  const mailings = new Mailings({
    lake,
    send,
    links,
    graceMs: config.newsletterGraceMinutes * 60_000,
    perMinute: config.newsletterSendPerMinute,
    backoff,
  })
  // Publishes and unpublishes are public commits: each one is a reason to look again (the
  // newsletter's own writes are private and wake nothing).
  const unsubscribe = lake.onCommit((committed) => {
    if (touchesPublic(committed)) mailings.poke()
  })
  mailings.start()
  return {
    close: async () => {
      unsubscribe()
      await mailings.close()
    },
  }
}
