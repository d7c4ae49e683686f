import type {Context} from 'hono'
import type {ContentfulStatusCode} from 'hono/utils/http-status'
import {escapeHtml} from '../html.ts'

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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Your message was not sent</title>
<style>body{font:1.125rem/1.6 Georgia,serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222;background:#fffdf8}a{color:#7a3b00}</style>
</head>
<body>
<main>
<h1>Your message was not sent</h1>
<p role="alert">${escapeHtml(message)}</p>
<p><a href="${escapeHtml(backTo)}">Back to the contact page</a></p>
</main>
</body>
</html>
`
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
