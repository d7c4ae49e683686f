import type {RawFields} from './validate.ts'

/** Far above any real message (10 000 characters) yet small enough to hold in memory. */
export const maxBodyBytes = 64 * 1024

export type ParsedBody =
  {ok: true; fields: RawFields} | {ok: false; status: 400 | 415; message: string}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads a post in any of the encodings a form or FormSubmit's AJAX clients use: urlencoded (the
 * native default), multipart (a form with enctype=multipart/form-data) or a JSON object.
 * The caller has already bounded the body size. Files in a multipart body are kept as non-text
 * values, which validation refuses.
 */
export async function readFields(request: Request): Promise<ParsedBody> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  try {
    if (type === 'application/x-www-form-urlencoded') {
      return {ok: true, fields: Object.fromEntries(new URLSearchParams(await request.text()))}
    }
    if (type === 'multipart/form-data') {
      const form = await request.formData()
      const fields: RawFields = {}
      for (const [key, value] of form) if (!(key in fields)) fields[key] = value
      return {ok: true, fields}
    }
    if (type === 'application/json') {
      const value: unknown = JSON.parse(await request.text())
      if (!isRecord(value))
        return {ok: false, status: 400, message: 'The form data must be a JSON object.'}
      return {ok: true, fields: value}
    }
  } catch {
    return {
      ok: false,
      status: 400,
      message: 'The form data could not be read. Please try sending it again.',
    }
  }
  return {
    ok: false,
    status: 415,
    message:
      'Please send the form as application/x-www-form-urlencoded, multipart/form-data or JSON.',
  }
}
