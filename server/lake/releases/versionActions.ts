import {
  actionError,
  notFoundError,
  requireString,
  run,
  withoutSystem,
  type ActionHandler,
} from '../writes/actionContext.ts'
import {discardExisting, requireNew, requirePublished} from '../writes/actionGuards.ts'
import {badRequest} from '../errors.ts'
import {isRecord} from '../../util/isRecord.ts'
import {parseVersionId} from './releaseIds.ts'
import {requireEditableVersion} from './releaseState.ts'

const isDraftOrVersionId = (id: string) => /^drafts\./.test(id) || parseVersionId(id) !== undefined

function requireVersionId(action: Record<string, unknown>, index: number): string {
  const id = requireString(action, 'versionId', index)
  if (!isDraftOrVersionId(id))
    throw badRequest(`Action at index ${index}: "versionId" must be a draft or version id`)
  return id
}

/** The id a version of `publishedId` must have: its draft, or its version in some release. */
function isVersionOf(id: string, publishedId: string): boolean {
  return id === `drafts.${publishedId}` || parseVersionId(id)?.publishedId === publishedId
}

/**
 * `sanity.action.document.version.*`: drafts and release versions. A version's release must
 * exist and be active (releaseState.ts); the Studio discards a draft with `version.discard` and
 * adds a document to a release with `version.create` from its base (useReleaseOperations).
 */
export const versionActions: Record<string, ActionHandler> = {
  'sanity.action.document.version.discard': async ({tx}, action, index) => {
    const versionId = requireVersionId(action, index)
    requireEditableVersion(tx, versionId, index)
    await discardExisting(tx, versionId, index, 'it does not exist')
  },

  'sanity.action.document.version.create': async ({tx}, action, index) => {
    const publishedId = requireString(action, 'publishedId', index)
    const document = action.document
    let doc: Record<string, unknown>
    if (isRecord(document)) {
      const {_rev: _r, ...given} = document
      doc = given
    } else {
      // From a base document (client.createVersion({baseId, releaseId, ...})): its content.
      const baseId = requireString(action, 'baseId', index)
      const versionId = requireString(action, 'versionId', index)
      const base = tx.get(baseId)
      if (!base)
        throw notFoundError(index, `Cannot create a version from "${baseId}": it does not exist`)
      if (typeof action.ifBaseRevisionId === 'string' && action.ifBaseRevisionId !== base._rev)
        throw actionError(
          index,
          `"${baseId}" has changed (revision ${base._rev}); reload and try again`,
          409,
          'conflictError',
        )
      const {_createdAt: _c, ...content} = withoutSystem(base, versionId)
      doc = content
    }
    const id = typeof doc._id === 'string' ? doc._id : ''
    if (!isVersionOf(id, publishedId))
      throw badRequest(
        `Action at index ${index}: document._id must be a version of "${publishedId}"`,
      )
    requireEditableVersion(tx, id, index)
    requireNew(tx, id, index)
    await run(tx, {create: doc}, index)
  },

  'sanity.action.document.version.replace': async ({tx}, action, index) => {
    const document = action.document
    if (!isRecord(document)) throw badRequest(`Action at index ${index} needs "document"`)
    const {_rev: _r, ...doc} = document
    const id = typeof doc._id === 'string' ? doc._id : ''
    if (!isDraftOrVersionId(id))
      throw badRequest(`Action at index ${index}: document._id must be a draft or version id`)
    requireEditableVersion(tx, id, index)
    if (!tx.get(id)) throw notFoundError(index, `Cannot replace "${id}": it does not exist`)
    await run(tx, {createOrReplace: doc}, index)
  },

  // Marks the version so that publishing its release unpublishes the document
  // (`_system.delete`); the document must be published now.
  'sanity.action.document.version.unpublish': async ({tx}, action, index) => {
    const versionId = requireString(action, 'versionId', index)
    const publishedId = requireString(action, 'publishedId', index)
    if (!parseVersionId(versionId) || !isVersionOf(versionId, publishedId))
      throw badRequest(
        `Action at index ${index}: "versionId" must be a release version of "${publishedId}"`,
      )
    requireEditableVersion(tx, versionId, index)
    const published = requirePublished(tx, publishedId, index)
    const version = tx.get(versionId) ?? withoutSystem(published, versionId)
    const {_rev: _r, _updatedAt: _u, ...content} = version
    await run(tx, {createOrReplace: {...content, _system: {delete: true}}}, index)
  },
}
