import type {Context} from 'hono'
import {FormRefusal, wantsJson} from '../http/formRefusal.ts'

/** The refusal page's title and its way back to the form. */
export function contactPage(backTo: string): {title: string; back: {href: string; label: string}} {
  return {
    title: 'Your message was not sent',
    back: {href: backTo, label: 'Back to the contact page'},
  }
}

/** A refused post, thrown to the app's responder: JSON for AJAX clients, a page for forms. */
export function contactRefusal(status: number, message: string, backTo: string): FormRefusal {
  return new FormRefusal(status, message, {kind: `contact-${status}`, ...contactPage(backTo)})
}

/** The answer to an accepted post: `{success: true}`, or 303 See Other back to the site. */
export function accept(c: Context, redirectTo: string): Response {
  c.header('Cache-Control', 'no-store')
  if (wantsJson(c)) return c.json({success: true})
  return c.redirect(redirectTo, 303)
}
