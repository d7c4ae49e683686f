import type {Context} from 'hono'
import {HttpError, type ErrorStatus} from './httpError.ts'
import {plainPage, plainPageSecurityPolicy} from './plainPage.ts'

/**
 * FormSubmit's AJAX convention, which every form of the site follows (contact, subscribe): a
 * client that asks for JSON (or sends JSON) gets `{success, message}`; a native form post gets a
 * redirect or a page a person can read.
 */
export function wantsJson(c: Context): boolean {
  const accept = c.req.header('accept') ?? ''
  const type = c.req.header('content-type') ?? ''
  return /\bapplication\/json\b/i.test(accept) || /^application\/json\b/i.test(type)
}

/** When to come back, in the words every refusal uses: seconds under a minute, else minutes. */
export function retryWording(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
  if (seconds < 60) return `Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`
  const minutes = Math.ceil(seconds / 60)
  return `Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

export interface FormRefusalOptions {
  /** The refusal log's kind (server/http/log.ts): one full line per client and kind a minute. */
  kind: string
  /** The page's title for a native post. */
  title: string
  /** Where the page's link leads back to, and its words. */
  back: {href: string; label: string}
  /** Seconds, for Retry-After (and the message's "try again in …", see `tooManyRequests`). */
  retryAfter?: number
}

/**
 * A form's refusal, thrown from its route and answered by the app's one responder
 * (errorResponse.ts), which logs it through the summarising refusal log: JSON for AJAX clients,
 * a plain page with the message in an alert region for a native post (with the plain page's own
 * Content-Security-Policy), never cached.
 */
export class FormRefusal extends HttpError {
  private readonly options: FormRefusalOptions

  constructor(status: number, message: string, options: FormRefusalOptions) {
    super(status, message)
    this.options = options
  }

  override get kind(): string {
    return this.options.kind
  }

  override respond(c: Context, status: ErrorStatus): Response {
    c.header('Cache-Control', 'no-store')
    if (this.options.retryAfter !== undefined)
      c.header('Retry-After', String(Math.max(1, Math.ceil(this.options.retryAfter))))
    if (wantsJson(c)) return c.json({success: false, message: this.message}, status)
    const {title, back} = this.options
    c.header('Content-Security-Policy', plainPageSecurityPolicy)
    return c.html(plainPage({title, paragraphs: [this.message], role: 'alert', back}), status)
  }
}

/** A 429 whose message ends with when to come back. */
export function tooManyRequests(
  retryAfter: number,
  message: string,
  options: Omit<FormRefusalOptions, 'retryAfter'>,
): FormRefusal {
  return new FormRefusal(429, `${message} ${retryWording(retryAfter)}`, {...options, retryAfter})
}
