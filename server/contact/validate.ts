import type {RawFields} from '../http/formFields.ts'
import {isEmail, maxEmailLength} from '../util/email.ts'
/** Bounds from issue #5; the form itself only marks the fields required (requirements §5). */
export const limits = {
  name: 200,
  email: maxEmailLength,
  message: 10_000,
  subject: 200,
  page: 2048,
} as const

/** A valid post, in FormSubmit's field names translated to ours. */
export interface Submission {
  name: string
  email: string
  message: string
  /** `_replyto`: a reply address other than `email`. */
  replyTo?: string
  /** `_subject`: the mail's subject line. */
  subject?: string
  /** `_next`: the page the visitor came from (and wants to return to). */
  next?: string
  /** `_honey` was filled in: a bot. */
  spam: boolean
}

export type Validation = {ok: true; submission: Submission} | {ok: false; message: string}

/** The raw fields of a post; values that are not text (JSON numbers, files) are refused. */

const labels = {name: 'your name', email: 'your email address', message: 'a message'} as const

function text(fields: RawFields, key: string): string | undefined | Error {
  const value = fields[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') return new Error(`The field “${key}” must be text.`)
  return value
}

/**
 * Checks a post the way a person would want it explained: one sentence saying what to fix.
 * `_template` and `_captcha` are FormSubmit options with no meaning here and are ignored.
 */
export function validateSubmission(fields: RawFields): Validation {
  const values: Record<string, string | undefined> = {}
  for (const key of ['name', 'email', 'message', '_replyto', '_subject', '_next', '_honey']) {
    const value = text(fields, key)
    if (value instanceof Error) return {ok: false, message: value.message}
    values[key] = value
  }
  for (const key of ['name', 'email', 'message'] as const) {
    if (!values[key]?.trim()) return {ok: false, message: `Please enter ${labels[key]}.`}
  }
  // One line: a name with line breaks could forge lines of the mail body (server/contact/mailer.ts).
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const name = values.name!.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()
  const email = values.email!.trim()
  const message = values.message!.trim()
  if (name.length > limits.name)
    return {ok: false, message: `Please shorten your name to ${limits.name} characters or fewer.`}
  if (!isEmail(email))
    return {ok: false, message: 'Please enter a valid email address, like name@example.com.'}
  if (message.length > limits.message) {
    return {
      ok: false,
      message: `Please shorten your message to ${limits.message.toLocaleString('en-GB')} characters or fewer.`,
    }
  }
  const replyTo = values._replyto?.trim() || undefined
  if (replyTo !== undefined && !isEmail(replyTo)) {
    return {ok: false, message: 'The reply-to address is not a valid email address.'}
  }
  const subject = values._subject?.replace(/\s+/g, ' ').trim() || undefined
  if (subject !== undefined && subject.length > limits.subject) {
    return {
      ok: false,
      message: `Please shorten the subject to ${limits.subject} characters or fewer.`,
    }
  }
  const next = values._next?.trim() || undefined
  return {
    ok: true,
    submission: {
      name,
      email,
      message,
      replyTo,
      subject,
      // An over-long page address is only context: drop it rather than refuse the message.
      next: next !== undefined && next.length <= limits.page ? next : undefined,
      spam: Boolean(values._honey?.trim()),
    },
  }
}
