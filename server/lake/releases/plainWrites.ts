import {mutationError} from '../errors.ts'
import type {TransactionBuilder} from '../writes/mutations.ts'
import {parseVersionId, releaseDocumentPrefix} from './releaseIds.ts'

/**
 * What /data/mutate may not do to releases: write a release document (only the release actions
 * do, so its state machine holds), or change a version of a release that is not active (a
 * scheduled release is locked; a version of no release is refused).
 */
export function checkPlainWrites(tx: TransactionBuilder): void {
  for (const [index, change] of tx.changes().entries()) {
    if (change.id.startsWith(releaseDocumentPrefix))
      throw mutationError(
        `The mutation(s) failed: "${change.id}" is a release document; use the release actions`,
        [{error: {id: change.id, type: 'releaseDocumentError'}, index}],
        409,
      )
    const version = parseVersionId(change.id)
    if (!version) continue
    const release = tx.get(`${releaseDocumentPrefix}${version.releaseId}`)
    if (release?.state !== 'active')
      throw mutationError(
        `The mutation(s) failed: release "${version.releaseId}" ${release ? `is ${String(release.state)}` : 'does not exist'}; its documents cannot change`,
        [{error: {id: change.id, type: 'releaseLockedError'}, index}],
        409,
      )
  }
}
