import {senderAddressOf, checkSmtpUrl, smtpTransport} from '../mail/smtp.ts'

/** One mail the newsletter sends: always text and HTML, always with unsubscribe headers. */
export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html: string
  /** RFC 2369 / RFC 8058: where and how to unsubscribe. */
  unsubscribeUrl: string
  /** Stable per mail, so a resend is recognisably the same message. */
  messageId: string
}

/** Resolves once the SMTP server has accepted the mail. */
export type SendMail = (mail: OutgoingMail, signal?: AbortSignal) => Promise<void>

/**
 * Sends through SMTP_URL (server/mail/smtp.ts) from the site's sender address, under the name
 * `name()` gives at each mail (already header-safe: server/mail/smtp.ts `headerSafeName`).
 */
export function smtpSendMail(
  smtpUrl: string,
  siteUrl: string,
  name: () => Promise<string>,
): {send: SendMail; close(): void} {
  const address = senderAddressOf(checkSmtpUrl(smtpUrl), siteUrl)
  const transport = smtpTransport(smtpUrl, true)
  const send: SendMail = async (mail, signal) => {
    // nodemailer quotes the name or encodes it (RFC 2047) as the header needs.
    const from = {name: await name(), address}
    const info = await transport.sendMail({
      from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mail.messageId,
      headers: {
        'List-Unsubscribe': `<${mail.unsubscribeUrl}>, <mailto:${address}?subject=unsubscribe>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      ...(signal ? {signal} : {}),
    })
    if (info.rejected.length > 0)
      throw new Error(`The mail server refused ${info.rejected.join(', ')}`)
  }
  // The pooled connection is closed on stop, so nothing keeps the process (or a test) waiting.
  return {send, close: () => transport.close()}
}
