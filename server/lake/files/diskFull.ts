import {refusals} from '../../http/log.ts'
import {insufficientStorage} from '../errors.ts'
import {messageOf} from '../../util/messageOf.ts'

/** SQLite's primary result code for a full disk (https://sqlite.org/rescode.html#full). */
const sqliteFull = 13

/**
 * Whether `error` means the disk (or the owner's quota) is full: ENOSPC/EDQUOT from node:fs, or
 * SQLITE_FULL from node:sqlite (`errcode`, whose low byte is the primary code).
 */
export function isDiskFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = 'code' in error ? error.code : undefined
  if (code === 'ENOSPC' || code === 'EDQUOT') return true
  const errcode = 'errcode' in error ? error.errcode : undefined
  return (
    code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && (errcode & 0xff) === sqliteFull
  )
}

/**
 * The error to answer for a failed write: a full disk becomes the 507 LakeError (Sanity-shaped,
 * with no filesystem path in it); anything else is passed on unchanged. The original message is
 * logged (summarised per minute while the disk stays full) so the owner sees what could not grow.
 */
export function storageError(error: unknown): unknown {
  if (!isDiskFull(error)) return error
  const detail = messageOf(error)
  refusals.refuse('server', 'disk-full', `[data] 507, the disk is full: ${detail}`)
  return insufficientStorage()
}
