import type {BackupResult} from '../backup.ts'

export const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** One line for the CLI and the schedule's log: where, how big, how long, what it holds. */
export function describeBackup({file, bytes, ms, manifest}: BackupResult): string {
  const {documents, images} = manifest.counts
  return `wrote ${file}: ${size(bytes)} in ${(ms / 1000).toFixed(1)} s (${documents} documents, ${images} images, schema ${manifest.schemaVersion})`
}
