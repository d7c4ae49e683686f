import {actionError, notFoundError, run} from './actionContext.ts'
import type {TransactionBuilder} from './mutations.ts'
import type {Doc} from '../types.ts'

/**
 * Checks that the draft actions (actions.ts) and the version actions
 * (releases/versionActions.ts) share: the same refusal, in Sanity's shape, for the same case.
 */

/** The published document an unpublish needs; a 409 `documentNotFoundError` when there is none. */
export function requirePublished(tx: TransactionBuilder, publishedId: string, index: number): Doc {
  const published = tx.get(publishedId)
  if (!published)
    throw notFoundError(index, `Cannot unpublish "${publishedId}": it is not published`)
  return published
}

/** A create's id must be free: a 409 `documentAlreadyExistsError` otherwise. */
export function requireNew(tx: TransactionBuilder, id: string, index: number): void {
  if (tx.get(id))
    throw actionError(index, `Document "${id}" already exists`, 409, 'documentAlreadyExistsError')
}

/** Deletes a draft or version that must exist; `missing` says why not when it does not. */
export async function discardExisting(
  tx: TransactionBuilder,
  id: string,
  index: number,
  missing: string,
): Promise<void> {
  if (!tx.get(id)) throw notFoundError(index, `Cannot discard "${id}": ${missing}`)
  await run(tx, {delete: {id}}, index)
}
