import {actionError} from '../writes/actionContext.ts'
import type {TransactionBuilder} from '../writes/mutations.ts'
import type {Doc} from '../types.ts'
import {parseVersionId, releaseDocumentId, releaseType} from './releaseIds.ts'

/**
 * A release's states, as the Studio reads `state` (docs/studio-protocol.md §h): `active` while
 * documents are added, `scheduled` (locked) until `publishAt`, then `published`; `archived`
 * when set aside. Sanity's transient states (`scheduling`, `publishing`, …) never show here:
 * each action is one transaction.
 */
export type ReleaseState = 'active' | 'scheduled' | 'published' | 'archived'

export interface ReleaseDoc extends Doc {
  state: ReleaseState
  metadata?: Record<string, unknown>
  publishAt?: string
}

function isReleaseDoc(doc: Doc): doc is ReleaseDoc {
  return (
    doc._type === releaseType &&
    ['active', 'scheduled', 'published', 'archived'].includes(String(doc.state))
  )
}

/**
 * The release as the transaction sees it: a 404 when there is none, a 409 when the id holds a
 * document that is not a release (one written under `_.releases.` by other means).
 */
export function requireRelease(
  tx: TransactionBuilder,
  releaseId: string,
  index: number,
): ReleaseDoc {
  const doc = tx.get(releaseDocumentId(releaseId))
  if (!doc)
    throw actionError(index, `Release "${releaseId}" does not exist`, 404, 'releaseNotFoundError')
  if (!isReleaseDoc(doc))
    throw actionError(index, `"${doc._id}" is not a release document`, 409, 'releaseNotFoundError')
  return doc
}

/** Refuses (409, nothing changed) an action the release's state does not allow. */
export function requireState(
  release: ReleaseDoc,
  allowed: readonly ReleaseState[],
  what: string,
  index: number,
): void {
  if (allowed.includes(release.state)) return
  const releaseId = String(release._id).split('.').pop()
  const hint = release.state === 'scheduled' ? '; unschedule it first' : ''
  throw actionError(
    index,
    `Cannot ${what} release "${releaseId}": it is ${release.state}${hint}`,
    409,
    release.state === 'scheduled' ? 'releaseLockedError' : 'releaseStateError',
  )
}

/**
 * A version may change only while its release is active: a scheduled release is locked, a
 * published or archived one is done. Drafts and published ids are not versions and pass.
 */
export function requireEditableVersion(tx: TransactionBuilder, id: string, index: number): void {
  const version = parseVersionId(id)
  if (!version) return
  const release = requireRelease(tx, version.releaseId, index)
  requireState(release, ['active'], 'change a document of', index)
}
