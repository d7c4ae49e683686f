import {statfsSync} from 'node:fs'
import {BackupError} from './errors.ts'

/**
 * Left free after a backup or restore has written everything: the lake keeps committing (its
 * WAL grows until a checkpoint) and SQLite fails a commit outright on a full disk, so a backup
 * must never take the last of it.
 */
export const reserveBytes = 256 * 1024 * 1024

/** Bytes available to this (unprivileged) process on the filesystem holding `dir`. */
export function freeBytes(dir: string): number {
  const stats = statfsSync(dir)
  return Number(stats.bavail) * Number(stats.bsize)
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

/** Refuses, before anything is written, when `need` bytes plus the reserve are not free in `dir`. */
export function ensureFreeSpace(
  dir: string,
  need: number,
  what: string,
  reserve = reserveBytes,
): void {
  const free = freeBytes(dir)
  if (free < need + reserve)
    throw new BackupError(
      `Not enough free space for ${what} in ${dir}: it needs about ${mb(need)} plus ${mb(reserve)} kept free for the lake, and ${mb(free)} is free. Free some space or write elsewhere.`,
    )
}
