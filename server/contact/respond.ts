import type {Context} from 'hono'
import type {ContentfulStatusCode} from 'hono/utils/http-status'
import {plainPage} from '../http/plainPage.ts'

/**
 * FormSubmit's AJAX convention: a client that asks for JSON (or sends JSON) gets
 * `{success, message}`; a native form post gets a redirect or a page a person can read.
 */
export function wantsJson(c: Context): boolean {
  const accept = c.req.header('accept') ?? ''
  const type = c.req.header('content-type') ?? ''
  return /\bapplication\/json\b/i.test(accept) || /^application\/json\b/i.test(type)
}

/** A plain, self-contained page: the message in an alert region and a link back to the form. */
export function errorPage(message: string, backTo: string): string {
  return plainPage({
    title: 'Your message was not sent',
    paragraphs: [message],
    role: 'alert',
    back: {href: backTo, label: 'Back to the contact page'},
  })
}

/** The answer to a refused post: JSON for AJAX clients, the error page for native forms. */
export function refuse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  backTo: string,
): Response {
  c.header('Cache-Control', 'no-store')
  if (wantsJson(c)) return c.json({success: false, message}, status)
  return c.html(errorPage(message, backTo), status)
}

/** The answer to an accepted post: `{success: true}`, or 303 See Other back to the site. */
export function accept(c: Context, redirectTo: string): Response {
  c.header('Cache-Control', 'no-store')
  if (wantsJson(c)) return c.json({success: true})
  return c.redirect(redirectTo, 303)
}
