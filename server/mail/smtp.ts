import {createTransport, type Transporter} from 'nodemailer'
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js'
import {isEmail} from '../util/email.ts'

/**
 * What every mail this server sends shares (the contact relay, the newsletter): the checked
 * `SMTP_URL`, its transport and the sender address (docs/contact.md).
 */

/** Checks SMTP_URL; a malformed value throws at start, naming the variable (never the password). */
export function checkSmtpUrl(smtpUrl: string): URL {
  let url: URL
  try {
    url = new URL(smtpUrl)
  } catch {
    throw new Error(
      `SMTP_URL must be a URL like smtp://user:pass@host:587, got "${smtpUrl.replace(/:[^:@/]*@/, ':***@')}"`,
    )
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//"`)
  }
  return url
}

/** The sender: the SMTP login when it is an address, else no-reply@ the site's host. */
export function senderOf(smtpUrl: URL, siteUrl: string): string {
  const user = decodeURIComponent(smtpUrl.username)
  const host = new URL(siteUrl).hostname || 'localhost'
  const address = isEmail(user) ? user : `no-reply@${host}`
  return `Scriptorium <${address}>`
}

/**
 * A nodemailer SMTP transport with timeouts short enough for a retry loop. `pooled` keeps one
 * connection open between mails (the newsletter sends many in a row).
 */
export function smtpTransport(
  smtpUrl: string,
  pooled = false,
): Transporter<SMTPTransport.SentMessageInfo> {
  return createTransport({
    url: smtpUrl,
    ...(pooled ? {pool: true, maxConnections: 1} : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  })
}
