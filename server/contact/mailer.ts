import {checkSmtpUrl, senderOf, smtpTransport} from '../mail/smtp.ts'
import type {ContactMessage} from './inbox.ts'
import {isEmail} from '../util/email.ts'

/** Where and how mail goes: SMTP_URL and CONTACT_TO (docs/contact.md). */
export interface MailSettings {
  smtpUrl: string
  /** The owner's address(es), comma-separated as CONTACT_TO gives them. */
  to: string[]
  /** The sender address: the SMTP user if it is an address, else no-reply@ the site's host. */
  from: string
}

/**
 * Reads and checks the SMTP settings; undefined when mail is not configured. A malformed value
 * throws at start with a message naming the variable, rather than failing every delivery later.
 */
export function mailSettings(
  smtpUrl: string | undefined,
  contactTo: string | undefined,
  siteUrl: string,
): MailSettings | undefined {
  if (!smtpUrl || !contactTo) return undefined
  const url = checkSmtpUrl(smtpUrl)
  const to = contactTo
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  const bad = to.find((address) => !isEmail(address))
  if (bad !== undefined || to.length === 0) {
    throw new Error(
      `CONTACT_TO must be an email address (or several, comma-separated), got "${contactTo}"`,
    )
  }
  return {smtpUrl, to, from: senderOf(url, siteUrl)}
}

/** The subject FormSubmit's `_subject` overrides; whitespace collapsed so it stays one header line. */
export function subjectOf(message: ContactMessage): string {
  return message.subject ?? `New message from ${message.name.replace(/\s+/g, ' ')} via your website`
}

/**
 * A visitor's value as one line of the mail body: line breaks (CR, LF, U+2028/9) and other
 * control characters become a space, so a name cannot add `Bcc:` or `X-Injected:` lines under
 * the real ones (security review 2, finding 7). Messages stored before validation collapsed
 * names (server/contact/validate.ts) are mailed safely too.
 */
function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return value.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
}

export function textOf(message: ContactMessage): string {
  return [
    `Name: ${oneLine(message.name)}`,
    `Email: ${oneLine(message.email)}`,
    ...(message.replyTo ? [`Reply-To: ${oneLine(message.replyTo)}`] : []),
    ...(message.page ? [`Page: ${oneLine(message.page)}`] : []),
    `Received: ${message.receivedAt}`,
    '',
    message.message,
    '',
  ].join('\n')
}

/** Sends one message; resolves once the SMTP server has accepted it for every recipient. */
export type Deliver = (message: ContactMessage, signal: AbortSignal) => Promise<void>

/** Delivers through the SMTP server of `settings` (server/mail/smtp.ts). */
export function smtpDeliver(settings: MailSettings): Deliver {
  const transport = smtpTransport(settings.smtpUrl)
  return async (message, signal) => {
    const info = await transport.sendMail({
      from: settings.from,
      to: settings.to,
      replyTo: message.replyTo ?? {name: message.name.replace(/\s+/g, ' '), address: message.email},
      subject: subjectOf(message),
      text: textOf(message),
      // Stable per message: if a crash forces a resend, mail clients can tell it is the same one.
      messageId: `<${message._id}@scriptorium.contact>`,
      signal,
    })
    if (info.rejected.length > 0)
      throw new Error(`The mail server refused ${info.rejected.join(', ')}`)
  }
}
