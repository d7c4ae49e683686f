import {
  actionError,
  notFoundError,
  requireString,
  run,
  withoutSystem,
  type ActionContext,
  type ActionHandler,
} from './actionContext.ts'
import {discardExisting, requireNew, requirePublished} from './actionGuards.ts'
import {badRequest} from '../errors.ts'
import type {PatchBody} from '../types.ts'
import {releaseActions} from '../releases/releaseActions.ts'
import {parseVersionId} from '../releases/releaseIds.ts'
import {requireEditableVersion} from '../releases/releaseState.ts'
import {versionActions} from '../releases/versionActions.ts'
import {isRecord} from '../../util/isRecord.ts'

/**
 * The Actions API (POST /data/actions): each document action expands to low-level mutations
 * inside one transaction (https://www.sanity.io/docs/http-reference/actions).
 */
const handlers: Record<string, ActionHandler> = {
  'sanity.action.document.create': async ({tx}, action, index) => {
    const publishedId = requireString(action, 'publishedId', index)
    const attributes = action.attributes
    if (!isRecord(attributes)) throw badRequest(`Action at index ${index} needs "attributes"`)
    const attrs = attributes
    const id = typeof attrs._id === 'string' ? attrs._id : `drafts.${publishedId}`
    // In a release's perspective the Studio creates a new document as its version there.
    const version = parseVersionId(id)
    if (
      id !== publishedId &&
      id !== `drafts.${publishedId}` &&
      version?.publishedId !== publishedId
    ) {
      throw badRequest(
        `Action at index ${index}: attributes._id must be "${publishedId}", "drafts.${publishedId}" or "versions.<releaseId>.${publishedId}"`,
      )
    }
    requireEditableVersion(tx, id, index)
    if (tx.get(id) && action.ifExists === 'ignore') return
    requireNew(tx, id, index)
    const {_rev: _r, ...doc} = attrs
    await run(tx, {create: {...doc, _id: id}}, index)
  },

  'sanity.action.document.edit': async ({tx}, action, index) => {
    const draftId = requireString(action, 'draftId', index)
    // The Studio edits a document in a release by its version id: locked once scheduled.
    requireEditableVersion(tx, draftId, index)
    const publishedId = requireString(action, 'publishedId', index)
    const patch = action.patch
    if (typeof patch !== 'object' || patch === null)
      throw badRequest(`Action at index ${index} needs "patch"`)
    if (!tx.get(draftId)) {
      // The Studio never creates the draft of a published document itself: edit does.
      const published = tx.get(publishedId)
      if (!published)
        throw notFoundError(
          index,
          `Cannot edit "${publishedId}": neither a draft nor a published document exists`,
        )
      await run(tx, {createIfNotExists: withoutSystem(published, draftId)}, index)
    }
    await run(tx, {patch: {...(patch as PatchBody), id: draftId}}, index)
  },

  'sanity.action.document.publish': async ({tx}, action, index) => {
    const draftId = requireString(action, 'draftId', index)
    const publishedId = requireString(action, 'publishedId', index)
    const draft = tx.get(draftId)
    if (!draft) throw notFoundError(index, `Cannot publish "${publishedId}": there is no draft`)
    if (typeof action.ifDraftRevisionId === 'string' && action.ifDraftRevisionId !== draft._rev) {
      throw actionError(
        index,
        `Draft of "${publishedId}" has changed (revision ${draft._rev}); reload and publish again`,
        409,
        'conflictError',
      )
    }
    const published = tx.get(publishedId)
    if (
      typeof action.ifPublishedRevisionId === 'string' &&
      action.ifPublishedRevisionId !== published?._rev
    ) {
      throw actionError(
        index,
        `Published "${publishedId}" has changed (revision ${published?._rev ?? 'none'}); reload and publish again`,
        409,
        'conflictError',
      )
    }
    const doc = withoutSystem(draft, publishedId)
    if (published?._createdAt) doc._createdAt = published._createdAt
    await run(tx, {createOrReplace: doc}, index)
    await run(tx, {delete: {id: draftId}}, index)
  },

  'sanity.action.document.unpublish': async ({tx}, action, index) => {
    const draftId = requireString(action, 'draftId', index)
    const publishedId = requireString(action, 'publishedId', index)
    const published = requirePublished(tx, publishedId, index)
    if (!tx.get(draftId))
      await run(tx, {createIfNotExists: withoutSystem(published, draftId)}, index)
    await run(tx, {delete: {id: publishedId}}, index)
  },

  'sanity.action.document.discard': async ({tx}, action, index) => {
    const draftId = requireString(action, 'draftId', index)
    await discardExisting(tx, draftId, index, 'there is no draft')
  },

  'sanity.action.document.delete': async ({tx}, action, index) => {
    const publishedId = requireString(action, 'publishedId', index)
    const include = Array.isArray(action.includeDrafts)
      ? action.includeDrafts.filter((id) => typeof id === 'string')
      : []
    const ids = [publishedId, `drafts.${publishedId}`, ...include]
    if (!ids.some((id) => tx.get(id)))
      throw notFoundError(index, `Cannot delete "${publishedId}": it does not exist`)
    for (const id of new Set(ids)) if (tx.get(id)) await run(tx, {delete: {id}}, index)
  },

  'sanity.action.document.replaceDraft': async ({tx}, action, index) => {
    const publishedId = requireString(action, 'publishedId', index)
    const draftId = typeof action.draftId === 'string' ? action.draftId : `drafts.${publishedId}`
    requireEditableVersion(tx, draftId, index)
    const attributes = action.attributes
    if (!isRecord(attributes)) throw badRequest(`Action at index ${index} needs "attributes"`)
    const {_rev: _r, ...doc} = attributes
    await run(tx, {createOrReplace: {...doc, _id: draftId}}, index)
  },

  ...versionActions,
  ...releaseActions,
}

export const supportedActions = Object.keys(handlers)

/** Applies a list of actions to one transaction; an unknown action type is a 400. */
export async function applyActions(context: ActionContext, actions: unknown[]): Promise<void> {
  for (const [index, action] of actions.entries()) {
    if (!isRecord(action)) throw badRequest(`Action at index ${index} must be an object`)
    const type = action.actionType
    const handler = typeof type === 'string' ? handlers[type] : undefined
    if (!handler) {
      throw badRequest(
        `Unknown action type ${JSON.stringify(type)} at index ${index}; supported: ${supportedActions.join(', ')}`,
      )
    }
    await handler(context, action, index)
  }
}
