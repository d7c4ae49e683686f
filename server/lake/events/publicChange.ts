import {isPublicId, type CommittedTransaction} from '../types.ts'

/**
 * Whether a commit can change what anonymous readers see. Anonymous reads (the public site, its
 * renders, the query cache) never see a private id (drafts.*, inbox.*, versions.*: types.ts), and
 * a reference to one does not resolve for them, so a commit of private documents only (a draft
 * edit, a contact message) leaves every public answer as it was, and public caches stay warm.
 */
export function touchesPublic(tx: CommittedTransaction): boolean {
  return tx.changes.some((change) => isPublicId(change.id))
}
