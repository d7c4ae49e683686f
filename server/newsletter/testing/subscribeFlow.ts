import type {SmtpSink, ReceivedMail} from '../../../test/support/smtpSink.ts'
import {linkIn} from './mailLinks.ts'

let visitor = 0

/** Waits for the `nth` mail (1-based) to `address`. */
export async function mailTo(sink: SmtpSink, address: string, nth = 1): Promise<ReceivedMail> {
  for (;;) {
    const mails = sink.mails.filter((m) => m.envelopeTo.includes(address))
    if (mails.length >= nth) return mails[nth - 1]
    await sink.waitFor(sink.mails.length + 1)
  }
}

/** Rewrites a link in a mail (SITE_URL) to the test server's own address. */
export const onServer = (link: string, siteUrl: string, url: string) => link.replace(siteUrl, url)

/**
 * Subscribes `email` through the form's endpoint, as its own visitor (TRUST_PROXY=loopback),
 * and, unless `confirm` is false, opens the confirmation link from the mail.
 */
export async function subscribeThroughMail(
  server: {url: string; config: {siteUrl: string}},
  sink: SmtpSink,
  email: string,
  confirm = true,
): Promise<ReceivedMail> {
  const from = `10.${100 + (++visitor >> 8)}.${visitor & 255}.1`
  const res = await fetch(`${server.url}/api/subscribe`, {
    method: 'POST',
    body: new URLSearchParams({email}),
    headers: {'x-forwarded-for': from},
    redirect: 'manual',
  })
  await res.body?.cancel()
  // A native post is sent on to the site's "Check your inbox" page (post/redirect/get).
  if (res.status !== 303) throw new Error(`subscribe ${email}: ${res.status}`)
  const mail = await mailTo(sink, email)
  if (confirm) {
    const link = onServer(linkIn(mail, '/api/subscribe/confirm'), server.config.siteUrl, server.url)
    const confirmed = await fetch(link, {headers: {'x-forwarded-for': from}})
    if (confirmed.status !== 200) throw new Error(`confirm ${email}: ${confirmed.status}`)
  }
  return mail
}

/** Follows the one-click unsubscribe link of a mail (RFC 8058's POST); returns its status. */
export async function unsubscribeOneClick(
  server: {url: string; config: {siteUrl: string}},
  mail: ReceivedMail,
): Promise<number> {
  const link = onServer(linkIn(mail, '/api/unsubscribe'), server.config.siteUrl, server.url)
  const res = await fetch(link, {method: 'POST', body: 'List-Unsubscribe=One-Click'})
  await res.body?.cancel()
  return res.status
}
