import {run, withoutSystem} from '../writes/actionContext.ts'
import type {TransactionBuilder} from '../writes/mutations.ts'
import {isMarkedForUnpublish} from '../perspective.ts'
import {releaseDocumentId, versionIdOf} from './releaseIds.ts'
import {requireRelease, requireState} from './releaseState.ts'

/** The versions of a release, as the transaction sees them. */
export function versionsOf(tx: TransactionBuilder, releaseId: string) {
  const prefix = versionIdOf(releaseId, '')
  return tx.documents().filter((doc) => doc._id.startsWith(prefix))
}

/**
 * Publishes a release inside `tx`: each version replaces its published document (or deletes it,
 * when marked by `version.unpublish`), the versions go, and the release becomes `published`
 * with `finalDocumentStates`. It is one transaction, so readers see all of it or none of it;
 * any refusal throws and nothing changes. Both the action and the scheduler come here.
 */
export async function publishRelease(
  tx: TransactionBuilder,
  releaseId: string,
  index: number,
): Promise<void> {
  const release = requireRelease(tx, releaseId, index)
  requireState(release, ['active', 'scheduled'], 'publish', index)
  const prefix = versionIdOf(releaseId, '')
  const versions = versionsOf(tx, releaseId)
  for (const version of versions) {
    const publishedId = version._id.slice(prefix.length)
    const published = tx.get(publishedId)
    if (isMarkedForUnpublish(version)) {
      if (published) await run(tx, {delete: {id: publishedId}}, index)
    } else {
      const {_system: _s, ...content} = withoutSystem(version, publishedId)
      if (published?._createdAt) content._createdAt = published._createdAt
      await run(tx, {createOrReplace: content}, index)
    }
    await run(tx, {delete: {id: version._id}}, index)
  }
  const {_rev: _r, _updatedAt: _u, ...fields} = release
  await run(
    tx,
    {
      createOrReplace: {
        ...fields,
        _id: releaseDocumentId(releaseId),
        state: 'published',
        // To the millisecond: the transaction's own timestamp is cut to the second.
        publishedAt: new Date().toISOString(),
        finalDocumentStates: versions.map((version) => ({id: version._id})),
      },
    },
    index,
  )
}
