import type {Lake} from '../lake/index.ts'
import {headerSafeName} from '../mail/smtp.ts'

/**
 * The name readers' mails come from: the owner's name in the published site settings (issue
 * #37), read at each mail so that a change needs no restart; "Scriptorium" when it is unset or
 * the lake cannot answer (a mail is never held back for its sender's name).
 */
export async function senderName(lake: Lake): Promise<string> {
  try {
    const name = await lake.query<unknown>('*[_id == "siteSettings"][0].ownerName')
    return headerSafeName(typeof name === 'string' ? name : undefined)
  } catch {
    return headerSafeName(undefined)
  }
}
