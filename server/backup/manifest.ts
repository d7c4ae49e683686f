import {imageFilePattern} from '../lake/index.ts'
import {BackupError} from './errors.ts'
import {isRecord} from '../util/isRecord.ts'

/** The archive's first entry: what it holds and how to check it. */
export const manifestPath = 'manifest.json'
export const lakeFile = 'lake.sqlite'
export const keyValueFile = 'studio-keyvalue.json'
/** The reader statistics' aggregates (server/stats/store.ts); absent in data dirs older than it. */
export const statsFile = 'stats.sqlite'
export const imagesDir = 'assets/images'
/**
 * Keys nothing can make again without breaking what others hold: the social web actor's keys
 * (every follower's server cached the public key; server/social/keys.ts) and the newsletter's
 * signing key (the links in mails already sent; server/newsletter/secret.ts). Written once and
 * never rewritten, so read as they are. The owner token is not carried: a restore makes one.
 */
export const keyFiles = ['social-keys.json', 'newsletter-secret'] as const

/** Bumped when the archive's layout changes; a restore refuses formats it does not know. */
export const backupFormatVersion = 1
const formatName = 'scriptorium-backup'

/**
 * The manifest is read into memory before anything is extracted: 64 MiB is room for about
 * 400k image entries, far past a personal site, and stops a hostile archive from exhausting
 * memory with a giant first entry.
 */
export const maxManifestBytes = 64 * 1024 * 1024

export interface ManifestFile {
  path: string
  bytes: number
  sha256: string
}

export interface DocumentCounts {
  documents: number
  transactions: number
  /** Newest transaction position in the snapshot (0 for an empty lake). */
  revision: number
  byType: Record<string, number>
}

export interface Manifest {
  format: typeof formatName
  formatVersion: number
  createdAt: string
  /** The lake database's schema version (`PRAGMA user_version`, server/lake/store/store.ts). */
  schemaVersion: number
  counts: DocumentCounts & {images: number}
  files: ManifestFile[]
  /** Said in the archive itself, so whoever opens it knows what to expect. */
  excluded: string[]
}

export const excluded = [
  'Studio sessions (cleared in the snapshot: everyone logs in again)',
  'owner-token (restore generates a new one unless LAKE_TOKEN is set)',
  'the TLS key and certificate',
]

/** A path a backup may hold: nothing else is ever extracted (no `..`, no absolute paths). */
export function allowedPath(path: string): boolean {
  if (path === lakeFile || path === keyValueFile || path === statsFile) return true
  if ((keyFiles as readonly string[]).includes(path)) return true
  const [dir, name] = [path.slice(0, imagesDir.length + 1), path.slice(imagesDir.length + 1)]
  return dir === `${imagesDir}/` && imageFilePattern.test(name)
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

function isFile(value: unknown): value is ManifestFile {
  return (
    isRecord(value) &&
    typeof value.path === 'string' &&
    allowedPath(value.path) &&
    isCount(value.bytes) &&
    typeof value.sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(value.sha256)
  )
}

function isCounts(value: unknown): value is Manifest['counts'] {
  return (
    isRecord(value) &&
    isCount(value.documents) &&
    isCount(value.transactions) &&
    isCount(value.revision) &&
    isCount(value.images) &&
    isRecord(value.byType) &&
    Object.values(value.byType).every(isCount)
  )
}

/** Parses and checks a manifest; a BackupError says what is wrong with it. */
export function parseManifest(json: string): Manifest {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw new BackupError('the archive is corrupt (its manifest is not JSON)')
  }
  if (!isRecord(value) || value.format !== formatName)
    throw new BackupError('this is not a Scriptorium backup (no manifest of ours)')
  if (value.formatVersion !== backupFormatVersion)
    throw new BackupError(
      `the backup's format version is ${String(value.formatVersion)}; this Scriptorium reads version ${backupFormatVersion}. Use the Scriptorium version that wrote it, or a newer one.`,
    )
  const files = value.files
  if (
    typeof value.createdAt !== 'string' ||
    !isCount(value.schemaVersion) ||
    !isCounts(value.counts) ||
    !Array.isArray(files) ||
    !files.every(isFile) ||
    !files.some((file) => file.path === lakeFile) ||
    new Set(files.map((file) => file.path)).size !== files.length ||
    !Array.isArray(value.excluded)
  )
    throw new BackupError('the archive is corrupt (its manifest is incomplete)')
  return {
    format: formatName,
    formatVersion: backupFormatVersion,
    createdAt: value.createdAt,
    schemaVersion: value.schemaVersion,
    counts: value.counts,
    files,
    excluded: value.excluded.map(String),
  }
}
