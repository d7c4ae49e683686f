/**
 * A backup or restore refused or failed for a reason the owner can act on: the CLIs print its
 * message alone (no stack), the schedule logs it.
 */
export class BackupError extends Error {}

/** A Node system error's code (`ENOENT`, `Z_DATA_ERROR`, …), if `error` carries one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}
