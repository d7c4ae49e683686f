import {LakeError} from '../errors.ts'
import type {TransactionBuilder} from '../writes/mutations.ts'
import {releaseDocumentPrefix, releaseType} from './releaseIds.ts'

/**
 * The most releases open at once (active or scheduled), what Sanity calls the dataset's release
 * limit: it bounds a flood of releases from one token (each is a document and a scan of the
 * versions when published). The Studio reads it before offering "New release"
 * (api/features.ts) and recognizes the refusal's type.
 */
export const maxOpenReleases = 100

export function openReleaseCount(
  documents: readonly {_id: string; _type: string; state?: unknown}[],
): number {
  let count = 0
  for (const doc of documents)
    if (
      doc._type === releaseType &&
      doc._id.startsWith(releaseDocumentPrefix) &&
      (doc.state === 'active' || doc.state === 'scheduled')
    )
      count++
  return count
}

/** Refuses (409 `releaseLimitExceededError`, as Sanity) one more open release over the limit. */
export function requireRoomForRelease(tx: TransactionBuilder, index: number): void {
  if (openReleaseCount(tx.documents()) < maxOpenReleases) return
  const description = `At most ${maxOpenReleases} releases may be open at once; publish or archive one first`
  throw new LakeError(409, 'releaseLimitExceededError', description, {
    limit: maxOpenReleases,
    items: [{error: {type: 'releaseLimitExceededError', description}, index}],
  })
}
