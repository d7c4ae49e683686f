import type {Context, Hono} from 'hono'
import {bodyLimit} from 'hono/body-limit'
import type {ContentfulStatusCode} from 'hono/utils/http-status'
import {subscribePath} from '../../shared/siteConfig.ts'
import {readFields} from '../http/formFields.ts'
import type {RateLimiter} from '../util/rateLimit.ts'
import {wantsJson} from '../http/formRefusal.ts'
import {escapeHtml} from '../html.ts'
import {clientOf} from '../http/clientAddress.ts'
import {plainPage} from '../http/plainPage.ts'
import {addressHash, checkAddress} from './address.ts'
import type {SubscriptionMails} from './subscriptionMails.ts'
import type {Subscribers} from './subscribers.ts'
import {verifyToken} from './tokens.ts'

export const confirmPath = '/api/subscribe/confirm'
export const unsubscribePath = '/api/unsubscribe'

/** An address and a honeypot fit in far less; anything bigger is not a subscription. */
export const maxSubscribeBodyBytes = 4 * 1024

export interface NewsletterRouteDeps {
  subscribers: Subscribers
  mails: SubscriptionMails
  secret: Buffer
  /** Per client: subscribe posts, and link clicks (confirm, unsubscribe). */
  clientLimiter: RateLimiter
  linkLimiter: RateLimiter
  /** One bucket for everyone: bounds the confirmation mails sent per hour. */
  globalLimiter: RateLimiter
  now: () => Date
}

const back = {href: '/', label: 'Back to the site'}

function answer(
  c: Context,
  status: ContentfulStatusCode,
  title: string,
  message: string,
  extraHtml?: string,
): Response {
  c.header('Cache-Control', 'no-store')
  if (wantsJson(c)) return c.json({success: status < 400, message}, status)
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

function refuse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  reason: string,
): Response {
  console.warn(`[newsletter] ${status} from ${clientOf(c).key}: ${reason}`)
  return answer(c, status, 'That did not work', message)
}

function limited(c: Context, retryAfter: number, what: string): Response {
  c.header('Retry-After', String(retryAfter))
  const minutes = Math.ceil(retryAfter / 60)
  return refuse(
    c,
    429,
    `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    what,
  )
}

/** The same words whatever the address's state: they reveal nothing about it. */
const checkInbox =
  'Thank you. If this address can be subscribed, a mail is on its way: open the link in it to confirm. Nothing else will be sent until you do.'

/**
 * The newsletter's public routes (docs/newsletter.md): subscribe (no script needed), confirm by
 * signed link, unsubscribe by signed link (a page with a button, and RFC 8058's one-click POST).
 * Each refusal is a 4xx that changes nothing and is logged.
 */
export function registerNewsletterRoutes(app: Hono, deps: NewsletterRouteDeps): void {
  app.post(
    subscribePath,
    bodyLimit({
      maxSize: maxSubscribeBodyBytes,
      onError: (c) => refuse(c, 413, 'That is too much data for a subscription.', 'body too large'),
    }),
    async (c) => {
      const client = clientOf(c).key
      const retryAfter = deps.clientLimiter.take(client)
      if (retryAfter > 0) return limited(c, retryAfter, 'over the per-client subscribe limit')
      const body = await readFields(c.req.raw)
      if (!body.ok) return refuse(c, body.status, body.message, body.message)
      const address = checkAddress(body.fields.email)
      if (!address.ok) return refuse(c, 400, address.message, 'malformed address')
      // A bot that filled the honeypot is thanked like a person; nothing is stored or sent.
      const honey = body.fields._honey
      if (typeof honey === 'string' && honey !== '') {
        console.info(`[newsletter] honeypot from ${client}: ignored`)
        return answer(c, 200, 'Check your inbox', checkInbox)
      }
      // Counted for every real request, so the mails it could cause are bounded too.
      const globalWait = deps.globalLimiter.take('all')
      if (globalWait > 0) return limited(c, globalWait, 'over the hourly confirmation cap')
      const hash = addressHash(deps.secret, address.email)
      const outcome = await deps.subscribers.subscribe(address.email, hash, deps.now())
      if (outcome.mail === 'confirm') deps.mails.confirmation(outcome.subscriber, hash)
      else if (outcome.mail === 'already-active') deps.mails.alreadyActive(outcome.subscriber, hash)
      console.info(
        `[newsletter] subscribe from ${client}: ${outcome.mail ?? 'no mail (sent today)'}`,
      )
      return answer(c, 200, 'Check your inbox', checkInbox)
    },
  )

  app.get(confirmPath, async (c) => {
    const wait = deps.linkLimiter.take(clientOf(c).key)
    if (wait > 0) return limited(c, wait, 'over the per-client link limit')
    const check = verifyToken(deps.secret, 'confirm', c.req.query('token'), deps.now().getTime())
    if (!check.ok) {
      if (check.reason === 'expired')
        return refuse(
          c,
          410,
          'This confirmation link has expired. Please subscribe again for a new one.',
          'expired confirmation token',
        )
      return refuse(
        c,
        400,
        'This confirmation link is not valid.',
        `${check.reason} confirmation token`,
      )
    }
    const result = await deps.subscribers.confirm(check.claims.sub, check.claims.nonce, deps.now())
    if (result === 'used')
      return refuse(
        c,
        410,
        'This confirmation link has already been used.',
        'reused confirmation token',
      )
    console.info(`[newsletter] confirmed subscriber.${check.claims.sub}`)
    return answer(c, 200, 'You are subscribed', 'Thank you: new posts will come to your inbox.')
  })

  const unsubscribeCheck = (c: Context) =>
    verifyToken(deps.secret, 'unsubscribe', c.req.query('token'), deps.now().getTime())

  app.get(unsubscribePath, (c) => {
    const wait = deps.linkLimiter.take(clientOf(c).key)
    if (wait > 0) return limited(c, wait, 'over the per-client link limit')
    const check = unsubscribeCheck(c)
    if (!check.ok)
      return refuse(
        c,
        400,
        'This unsubscribe link is not valid.',
        `${check.reason} unsubscribe token`,
      )
    // A GET changes nothing (mail scanners follow links): the button posts.
    const action = `${unsubscribePath}?token=${encodeURIComponent(c.req.query('token') ?? '')}`
    return answer(
      c,
      200,
      'Unsubscribe',
      'Press the button to stop receiving new posts by email. Your address will be deleted.',
      `<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
    )
  })

  app.post(
    unsubscribePath,
    bodyLimit({
      maxSize: maxSubscribeBodyBytes,
      onError: (c) => refuse(c, 413, 'That is too much data.', 'body too large'),
    }),
    async (c) => {
      const wait = deps.linkLimiter.take(clientOf(c).key)
      if (wait > 0) return limited(c, wait, 'over the per-client link limit')
      const check = unsubscribeCheck(c)
      if (!check.ok)
        return refuse(
          c,
          400,
          'This unsubscribe link is not valid.',
          `${check.reason} unsubscribe token`,
        )
      const result = await deps.subscribers.unsubscribe(check.claims.sub, deps.now())
      if (result === 'unknown')
        return refuse(
          c,
          404,
          'This address is not subscribed.',
          'unsubscribe for an unknown subscriber',
        )
      console.info(`[newsletter] unsubscribed subscriber.${check.claims.sub} (${result})`)
      return answer(
        c,
        200,
        'You are unsubscribed',
        'Your address has been deleted. No more mail will be sent to it.',
      )
    },
  )
}
