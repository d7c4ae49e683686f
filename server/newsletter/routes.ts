import type {Context, Hono} from 'hono'
import {bodyLimit} from 'hono/body-limit'
import {
  confirmPath,
  maxSubscribeBodyBytes,
  subscribePath,
  unsubscribePath,
} from '../../shared/siteConfig.ts'
import {checkInboxMessage, subscribedPath} from '../../shared/subscribeAnswer.ts'
import {readFields} from '../http/formFields.ts'
import type {RateLimiter} from '../util/rateLimit.ts'
import {wantsJson} from '../http/formRefusal.ts'
import {escapeHtml} from '../html.ts'
import {clientOf} from '../http/clientAddress.ts'
import {isCrossSitePost} from '../http/crossSite.ts'
import {addressHash, checkAddress, recipientDomain} from './address.ts'
import {answer, limited, refuse} from './answers.ts'
import type {SubscriptionMails} from './subscriptionMails.ts'
import type {Subscribers} from './subscribers.ts'
import {verifyToken} from './tokens.ts'

export interface NewsletterRouteDeps {
  subscribers: Subscribers
  mails: SubscriptionMails
  secret: Buffer
  /** SITE_URL, read per request (its port is known only once the server listens). */
  siteUrl: () => string
  /** Per client: subscribe posts, and link clicks (confirm, unsubscribe). */
  clientLimiter: RateLimiter
  linkLimiter: RateLimiter
  /**
   * Per recipient domain, everyone together: bounds the confirmation mails sent per hour to one
   * domain. Per domain, not one bucket for all, so a flood of addresses at one domain cannot
   * close the form for every reader (security review 3, L2).
   */
  domainLimiter: RateLimiter
  now: () => Date
}

/** A taken subscription: a native post is sent on to the site's page (post/redirect/get). */
function accepted(c: Context): Response {
  c.header('Cache-Control', 'no-store')
  if (wantsJson(c)) return c.json({success: true, message: checkInboxMessage})
  return c.redirect(subscribedPath, 303)
}

/** A post's body, capped while it streams; `message` is what the refusal says. */
const cappedBody = (message: string) =>
  bodyLimit({
    maxSize: maxSubscribeBodyBytes,
    onError: (c) => refuse(c, 413, message, 'body too large'),
  })

/**
 * The newsletter's public routes (docs/newsletter.md): subscribe (no script needed), confirm by
 * signed link, unsubscribe by signed link (a page with a button, and RFC 8058's one-click POST).
 * Each refusal is a 4xx that changes nothing and is logged.
 */
export function registerNewsletterRoutes(app: Hono, deps: NewsletterRouteDeps): void {
  app.post(
    subscribePath,
    cappedBody('That is too much data for a subscription.'),
    subscribeHandler(deps),
  )
  app.get(confirmPath, confirmHandler(deps))
  app.get(unsubscribePath, unsubscribePageHandler(deps))
  app.post(unsubscribePath, cappedBody('That is too much data.'), unsubscribeHandler(deps))
}

/** The form's post: checked, counted, then stored, and a confirmation mailed at most once a day. */
function subscribeHandler(deps: NewsletterRouteDeps) {
  return async (c: Context) => {
    const client = clientOf(c).key
    // Before any count: a refused cross-site post uses up nobody's allowance.
    if (isCrossSitePost(c, deps.siteUrl()))
      return refuse(c, 403, 'Please subscribe with the form on this site.', 'cross-site post')
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
      return accepted(c)
    }
    // Counted for every real request, so the mails it could cause are bounded too.
    const domainWait = deps.domainLimiter.take(recipientDomain(address.email))
    if (domainWait > 0)
      return limited(c, domainWait, "over the hourly confirmation cap of the address's domain")
    const hash = addressHash(deps.secret, address.email)
    const outcome = await deps.subscribers.subscribe(address.email, hash, deps.now())
    if (outcome.mail === 'confirm') deps.mails.confirmation(outcome.subscriber, hash)
    else if (outcome.mail === 'already-active') deps.mails.alreadyActive(outcome.subscriber, hash)
    console.info(`[newsletter] subscribe from ${client}: ${outcome.mail ?? 'no mail (sent today)'}`)
    return accepted(c)
  }
}

/** The confirmation link: a signed, single-use token that turns a pending subscriber active. */
function confirmHandler(deps: NewsletterRouteDeps) {
  return async (c: Context) => {
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
  }
}

/** Both unsubscribe routes: the client's link allowance, then the signed token. */
function checkUnsubscribeLink(c: Context, deps: NewsletterRouteDeps) {
  const wait = deps.linkLimiter.take(clientOf(c).key)
  if (wait > 0) return {refusal: limited(c, wait, 'over the per-client link limit'), sub: undefined}
  const check = verifyToken(deps.secret, 'unsubscribe', c.req.query('token'), deps.now().getTime())
  if (!check.ok) {
    const refusal = refuse(
      c,
      400,
      'This unsubscribe link is not valid.',
      `${check.reason} unsubscribe token`,
    )
    return {refusal, sub: undefined}
  }
  return {refusal: undefined, sub: check.claims.sub}
}

/** The link a mail carries: a page with a button, since a GET changes nothing (scanners follow links). */
function unsubscribePageHandler(deps: NewsletterRouteDeps) {
  return (c: Context) => {
    const {refusal} = checkUnsubscribeLink(c, deps)
    if (refusal) return refusal
    const action = `${unsubscribePath}?token=${encodeURIComponent(c.req.query('token') ?? '')}`
    return answer(
      c,
      200,
      'Unsubscribe',
      'Press the button to stop receiving new posts by email. Your address will be deleted.',
      `<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
    )
  }
}

/** The button's post, and RFC 8058's one-click POST from the mail client. */
function unsubscribeHandler(deps: NewsletterRouteDeps) {
  return async (c: Context) => {
    const {refusal, sub} = checkUnsubscribeLink(c, deps)
    if (refusal) return refusal
    const result = await deps.subscribers.unsubscribe(sub, deps.now())
    if (result === 'unknown')
      return refuse(
        c,
        404,
        'This address is not subscribed.',
        'unsubscribe for an unknown subscriber',
      )
    console.info(`[newsletter] unsubscribed subscriber.${sub} (${result})`)
    return answer(
      c,
      200,
      'You are unsubscribed',
      'Your address has been deleted. No more mail will be sent to it.',
    )
  }
}
