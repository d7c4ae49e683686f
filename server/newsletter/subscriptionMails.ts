import type {SendMail} from './mailer.ts'
import {alreadySubscribedMail, confirmationMail, type MailBody} from './messages.ts'
import type {Subscriber, Subscribers} from './subscribers.ts'
import {signToken} from './tokens.ts'

/** How long a confirmation link works. */
export const confirmLinkMs = 48 * 60 * 60_000

export interface LinkSettings {
  siteUrl: string
  secret: Buffer
  now: () => Date
}

/** The signed unsubscribe address of a subscriber, for every mail it gets. */
export function unsubscribeUrl(links: LinkSettings, hash: string): string {
  const token = signToken(links.secret, 'unsubscribe', {sub: hash})
  return `${links.siteUrl}/api/unsubscribe?token=${token}`
}

export function confirmUrl(links: LinkSettings, hash: string, nonce: string): string {
  const exp = links.now().getTime() + confirmLinkMs
  const token = signToken(links.secret, 'confirm', {sub: hash, nonce, exp})
  return `${links.siteUrl}/api/subscribe/confirm?token=${token}`
}

/**
 * The mails about a subscription: a confirmation for a pending address, a note for an active
 * one. Sent after the answer (the visitor does not wait on SMTP); a failed send is logged and
 * frees the address's daily mail, so subscribing again can try once more.
 */
export class SubscriptionMails {
  private readonly send: SendMail
  private readonly links: LinkSettings
  private readonly subscribers: Subscribers
  private inFlight = new Set<Promise<void>>()

  constructor(send: SendMail, links: LinkSettings, subscribers: Subscribers) {
    this.send = send
    this.links = links
    this.subscribers = subscribers
  }

  confirmation(subscriber: Subscriber, hash: string): void {
    const confirm = confirmUrl(this.links, hash, subscriber.confirmNonce ?? '')
    const unsubscribe = unsubscribeUrl(this.links, hash)
    this.dispatch(subscriber, hash, confirmationMail(confirm, unsubscribe), unsubscribe, 'confirm')
  }

  alreadyActive(subscriber: Subscriber, hash: string): void {
    const unsubscribe = unsubscribeUrl(this.links, hash)
    const body = alreadySubscribedMail(this.links.siteUrl, unsubscribe)
    this.dispatch(subscriber, hash, body, unsubscribe, 'reminder')
  }

  private dispatch(
    subscriber: Subscriber,
    hash: string,
    body: MailBody,
    unsubscribe: string,
    kind: string,
  ): void {
    const sending = this.send({
      to: subscriber.email,
      ...body,
      unsubscribeUrl: unsubscribe,
      messageId: `<${kind}.${hash}.${Date.parse(subscriber.lastMailAt ?? '') || 0}@scriptorium.newsletter>`,
    })
      .catch(async (error: unknown) => {
        console.error(`[newsletter] could not mail ${subscriber._id} (${kind})`, error)
        await this.subscribers.forgetLastMail(hash).catch(() => undefined)
      })
      .finally(() => this.inFlight.delete(sending))
    this.inFlight.add(sending)
  }

  /** Waits for the mails being sent (on stop). */
  async settle(): Promise<void> {
    await Promise.all([...this.inFlight])
  }
}
