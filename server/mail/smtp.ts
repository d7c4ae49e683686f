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

/** The sender's name when nothing else is known (the owner's name replaces it in readers' mails). */
export const defaultSenderName = 'Scriptorium'

/** The sender's address: the SMTP login when it is an address, else no-reply@ the site's host. */
export function senderAddressOf(smtpUrl: URL, siteUrl: string): string {
  const user = decodeURIComponent(smtpUrl.username)
  const host = new URL(siteUrl).hostname || 'localhost'
  return isEmail(user) ? user : `no-reply@${host}`
}

/** The sender: "Scriptorium <address>" (senderAddressOf). */
export function senderOf(smtpUrl: URL, siteUrl: string): string {
  return `${defaultSenderName} <${senderAddressOf(smtpUrl, siteUrl)}>`
}

/**
 * A display name fit for a From header: control characters (CR/LF above all: a header injection)
 * and angle brackets gone, whitespace collapsed, at most 78 characters; nodemailer then quotes
 * or encodes it as RFC 5322/2047 need. Empty: the default name.
 */
export function headerSafeName(name: string | null | undefined): string {
  const clean = (name ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 78)
    .trim()
  return clean === '' ? defaultSenderName : clean
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
