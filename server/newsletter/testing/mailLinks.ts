import type {ReceivedMail} from '../../contact/testing/smtpSink.ts'

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
