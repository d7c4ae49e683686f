import {badRequest, LakeError} from '../errors.ts'
import type {TransactionBuilder} from './mutations.ts'
import type {Doc, Mut} from '../types.ts'

/** A document taken from the request as it is: `tx.apply` validates it as /data/mutate does. */
type Unchecked = Record<string, unknown>
/** What an action expands to: typed mutations, or creates of a document still to be checked. */
export type ActionMutation = Mut | {create: Unchecked} | {createOrReplace: Unchecked}

/** What an action works on: the transaction, and the log for what was deleted before. */
export interface ActionContext {
  tx: TransactionBuilder
  /** A document's newest stored content, also after it was deleted (unarchive restores it). */
  lastRevision(id: string): Doc | null
}

/** One action of the Actions API, expanded into the context's transaction. */
export type ActionHandler = (
  context: ActionContext,
  action: Record<string, unknown>,
  index: number,
) => Promise<void>

/** An action the lake refuses: Sanity's error shape, with the failing action's index. */
export function actionError(
  index: number,
  description: string,
  status = 409,
  type = 'actionError',
): LakeError {
  return new LakeError(status, type, description, {items: [{error: {type, description}, index}]})
}

/** The document an action names is not there: Sanity's 409 `documentNotFoundError`. */
export function notFoundError(index: number, description: string): LakeError {
  return actionError(index, description, 409, 'documentNotFoundError')
}

export function requireString(action: Record<string, unknown>, key: string, index: number): string {
  const value = action[key]
  if (typeof value !== 'string' || value === '')
    throw badRequest(`Action at index ${index} needs "${key}"`)
  return value
}

export async function run(
  tx: TransactionBuilder,
  mutation: ActionMutation,
  index: number,
): Promise<void> {
  await tx.apply(mutation, index)
}

/** The document's content under another id, without the system fields the commit sets. */
export function withoutSystem(doc: Doc, id: string): Doc {
  const {_rev: _r, _updatedAt: _u, ...rest} = doc
  return {...rest, _id: id}
}
