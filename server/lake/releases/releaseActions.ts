import {actionError, run, type ActionHandler} from '../writes/actionContext.ts'
import {badRequest} from '../errors.ts'
import type {TransactionBuilder} from '../writes/mutations.ts'
import type {PatchBody} from '../types.ts'
import {isRecord} from '../../util/isRecord.ts'
import {publishRelease, versionsOf} from './publishRelease.ts'
import {releaseDocumentId, releaseType, requireReleaseId} from './releaseIds.ts'
import {requireRoomForRelease} from './releaseLimits.ts'
import {requireRelease, requireState, type ReleaseDoc} from './releaseState.ts'

const releaseTypes = ['asap', 'scheduled', 'undecided']

/** A release's `metadata`: an object, `releaseType` one of Sanity's, times parseable. */
function checkMetadata(metadata: unknown, index: number): Record<string, unknown> {
  if (!isRecord(metadata))
    throw badRequest(`Action at index ${index}: "metadata" must be an object`)
  const type = metadata.releaseType
  if (type !== undefined && !releaseTypes.includes(String(type)))
    throw badRequest(
      `Action at index ${index}: metadata.releaseType must be one of ${releaseTypes.join(', ')}`,
    )
  for (const key of ['title', 'description'] as const) {
    if (metadata[key] !== undefined && typeof metadata[key] !== 'string')
      throw badRequest(`Action at index ${index}: metadata.${key} must be a string`)
  }
  const intended = metadata.intendedPublishAt
  if (
    intended !== undefined &&
    (typeof intended !== 'string' || Number.isNaN(Date.parse(intended)))
  )
    throw badRequest(`Action at index ${index}: metadata.intendedPublishAt must be a date-time`)
  return metadata
}

/** Writes the release document back with `fields` changed (and `drop` removed). */
async function rewrite(
  tx: TransactionBuilder,
  release: ReleaseDoc,
  fields: Record<string, unknown>,
  index: number,
  drop: string[] = [],
): Promise<void> {
  const {_rev: _r, _updatedAt: _u, ...kept} = release
  for (const key of drop) delete kept[key]
  await run(tx, {createOrReplace: {...kept, ...fields}}, index)
}

/** Only `metadata` is the caller's to patch; the rest of a release is the lake's. */
function checkMetadataPatch(patch: Record<string, unknown>, index: number): PatchBody {
  const paths: string[] = []
  for (const [op, value] of Object.entries(patch)) {
    if (op === 'id' || op === 'ifRevisionID') continue
    if (op === 'unset' && Array.isArray(value)) paths.push(...value.map(String))
    else if (isRecord(value)) paths.push(...Object.keys(value))
    else throw badRequest(`Action at index ${index}: patch.${op} is not a patch operation`)
  }
  const foreign = paths.find((path) => path !== 'metadata' && !/^metadata[.[]/.test(path))
  if (foreign !== undefined)
    throw badRequest(
      `Action at index ${index}: a release edit may only patch metadata, not "${foreign}"`,
    )
  return patch as PatchBody
}

/** `sanity.action.release.*` (https://www.sanity.io/docs/http-reference/actions). */
export const releaseActions: Record<string, ActionHandler> = {
  'sanity.action.release.create': async ({tx}, action, index) => {
    const releaseId = requireReleaseId(action, index)
    const metadata = checkMetadata(action.metadata ?? {}, index)
    const id = releaseDocumentId(releaseId)
    requireRoomForRelease(tx, index)
    if (tx.get(id))
      throw actionError(
        index,
        `Release "${releaseId}" already exists`,
        409,
        'documentAlreadyExistsError',
      )
    await run(
      tx,
      {
        create: {
          _id: id,
          _type: releaseType,
          name: releaseId,
          state: 'active',
          metadata: {...metadata, releaseType: metadata.releaseType ?? 'undecided'},
        },
      },
      index,
    )
  },

  'sanity.action.release.edit': async ({tx}, action, index) => {
    const releaseId = requireReleaseId(action, index)
    if (!isRecord(action.patch)) throw badRequest(`Action at index ${index} needs "patch"`)
    const patch = checkMetadataPatch(action.patch, index)
    const release = requireRelease(tx, releaseId, index)
    // Its title and description stay editable while scheduled (the Studio saves them from the
    // release's page); its documents are what the schedule locks.
    requireState(release, ['active', 'scheduled'], 'edit', index)
    await run(tx, {patch: {...patch, id: release._id}}, index)
    const edited = requireRelease(tx, releaseId, index)
    checkMetadata(edited.metadata ?? {}, index)
  },

  'sanity.action.release.publish': async ({tx}, action, index) => {
    await publishRelease(tx, requireReleaseId(action, index), index)
  },

  'sanity.action.release.schedule': async ({tx}, action, index) => {
    const releaseId = requireReleaseId(action, index)
    const publishAt = action.publishAt
    const at = typeof publishAt === 'string' ? Date.parse(publishAt) : Number.NaN
    if (Number.isNaN(at))
      throw badRequest(`Action at index ${index}: "publishAt" must be a date-time`)
    const release = requireRelease(tx, releaseId, index)
    requireState(release, ['active'], 'schedule', index)
    // Stored in UTC, to the millisecond: the scheduler compares it with the clock.
    const iso = new Date(at).toISOString()
    // The Studio shows a release's time from its metadata: a scheduled one says when.
    const metadata = {...release.metadata, releaseType: 'scheduled', intendedPublishAt: iso}
    await rewrite(tx, release, {state: 'scheduled', publishAt: iso, metadata}, index)
    // A time already past publishes at once, as @sanity/client documents `schedule`.
    if (at <= Date.now()) await publishRelease(tx, releaseId, index)
  },

  'sanity.action.release.unschedule': async ({tx}, action, index) => {
    const releaseId = requireReleaseId(action, index)
    const release = requireRelease(tx, releaseId, index)
    if (release.state !== 'scheduled')
      throw actionError(
        index,
        `Cannot unschedule release "${releaseId}": it is ${release.state}, not scheduled`,
        409,
        'releaseStateError',
      )
    await rewrite(tx, release, {state: 'active'}, index, ['publishAt'])
  },

  'sanity.action.release.archive': async ({tx}, action, index) => {
    const releaseId = requireReleaseId(action, index)
    const release = requireRelease(tx, releaseId, index)
    requireState(release, ['active'], 'archive', index)
    const versions = versionsOf(tx, releaseId)
    for (const version of versions) await run(tx, {delete: {id: version._id}}, index)
    await rewrite(
      tx,
      release,
      {
        state: 'archived',
        archivedAt: new Date().toISOString(),
        finalDocumentStates: versions.map((version) => ({id: version._id})),
      },
      index,
    )
  },

  'sanity.action.release.unarchive': async ({tx, lastRevision}, action, index) => {
    const releaseId = requireReleaseId(action, index)
    const release = requireRelease(tx, releaseId, index)
    requireState(release, ['archived'], 'unarchive', index)
    requireRoomForRelease(tx, index)
    const states = Array.isArray(release.finalDocumentStates) ? release.finalDocumentStates : []
    // The versions come back with the content they had when archived, read from the log.
    for (const state of states) {
      const id = isRecord(state) && typeof state.id === 'string' ? state.id : undefined
      const last = id === undefined || tx.get(id) ? null : lastRevision(id)
      if (last) {
        const {_rev: _r, _updatedAt: _u, ...content} = last
        await run(tx, {create: content}, index)
      }
    }
    await rewrite(tx, release, {state: 'active'}, index, ['archivedAt', 'finalDocumentStates'])
  },

  'sanity.action.release.delete': async ({tx}, action, index) => {
    const releaseId = requireReleaseId(action, index)
    const release = requireRelease(tx, releaseId, index)
    requireState(release, ['archived', 'published'], 'delete', index)
    await run(tx, {delete: {id: release._id}}, index)
  },
}
