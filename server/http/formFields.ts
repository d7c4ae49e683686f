import {BodyTooLargeError, withBoundedBody} from './body.ts'
import {isRecord} from '../util/isRecord.ts'

/** A form's fields as posted, before the form's own validation. */
export type RawFields = Record<string, unknown>

/** Far above any real form (a contact message is at most 10 000 characters) yet small enough to hold in memory. */
export const maxFormBytes = 64 * 1024

export type ParsedBody =
  {ok: true; fields: RawFields} | {ok: false; status: 400 | 413 | 415; message: string}

const readable = new Set([
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/json',
])

/**
 * Reads a post in any of the encodings a form or FormSubmit's AJAX clients use: urlencoded (the
 * native default), multipart (a form with enctype=multipart/form-data) or a JSON object.
 * The body is read under `maxFormBytes` while it streams (server/http/body.ts), whatever the
 * caller checked before. Files in a multipart body are kept as non-text values, which
 * validation refuses.
 */
export async function readFields(original: Request): Promise<ParsedBody> {
  const type = (original.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (!readable.has(type)) {
    return {
      ok: false,
      status: 415,
      message:
        'Please send the form as application/x-www-form-urlencoded, multipart/form-data or JSON.',
    }
  }
  try {
    const request = await withBoundedBody(original, maxFormBytes)
    if (type === 'application/x-www-form-urlencoded') {
      return {ok: true, fields: Object.fromEntries(new URLSearchParams(await request.text()))}
    }
    if (type === 'multipart/form-data') {
      const form = await request.formData()
      const fields: RawFields = {}
      for (const [key, value] of form) if (!(key in fields)) fields[key] = value
      return {ok: true, fields}
    }
    const value: unknown = JSON.parse(await request.text())
    if (!isRecord(value))
      return {ok: false, status: 400, message: 'The form data must be a JSON object.'}
    return {ok: true, fields: value}
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return {
        ok: false,
        status: 413,
        message: 'The form is too long to send. Please shorten it and try again.',
      }
    return {
      ok: false,
      status: 400,
      message: 'The form data could not be read. Please try sending it again.',
    }
  }
}
