import {parseMail, type ReceivedMail} from '../../../test/support/smtpSink.ts'

/** The raw mail with quoted-printable soft breaks and escapes undone (both parts, as sent). */
export function decodedRaw(mail: ReceivedMail): string {
  return mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** The first link in `mail` to `path` (e.g. /api/subscribe/confirm), with its token. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const escaped = path.replace(/[/.]/g, '\\$&')
  const match = new RegExp(`https?://[^\\s"<>]+${escaped}\\?token=[A-Za-z0-9_.-]+`).exec(
    decodedRaw(mail),
  )
  if (!match) throw new Error(`no ${path} link in the mail:\n${mail.raw}`)
  return match[0]
}

/** The text and HTML parts of a multipart/alternative mail, each decoded (what a reader sees). */
export function mailParts(mail: ReceivedMail): {text: string; html: string} {
  const boundary = /boundary="?([^";]+)"?/.exec(mail.headers.get('content-type') ?? '')?.[1]
  if (!boundary) throw new Error(`not a multipart mail:\n${mail.raw}`)
  const body = mail.raw.slice(mail.raw.indexOf('\r\n\r\n') + 4)
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => parseMail(part.replace(/^\r\n/, '').replace(/\r\n$/, ''), '', []))
  const of = (type: string) => {
    const part = parts.find((p) => p.headers.get('content-type')?.startsWith(type))
    if (!part) throw new Error(`no ${type} part in the mail:\n${mail.raw}`)
    return part.text
  }
  return {text: of('text/plain'), html: of('text/html')}
}
