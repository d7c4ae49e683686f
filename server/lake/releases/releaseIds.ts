import {badRequest} from '../errors.ts'
import {releaseIdPattern} from '../perspective.ts'

/** Release documents live under this path (`_.releases.<releaseId>`), type `system.release`. */
export const releaseDocumentPrefix = '_.releases.'
export const releaseType = 'system.release'

export function releaseDocumentId(releaseId: string): string {
  return `${releaseDocumentPrefix}${releaseId}`
}

/** `versions.<releaseId>.<publishedId>`: a document's version in a release. */
export function versionIdOf(releaseId: string, publishedId: string): string {
  return `versions.${releaseId}.${publishedId}`
}

/** The release and published id of a version id, or undefined for any other id. */
export function parseVersionId(id: string): {releaseId: string; publishedId: string} | undefined {
  if (!id.startsWith('versions.')) return undefined
  const [, releaseId, ...rest] = id.split('.')
  const publishedId = rest.join('.')
  if (!releaseIdPattern.test(releaseId) || publishedId === '') return undefined
  return {releaseId, publishedId}
}

/** The action's `releaseId`, which must be a well-formed release id (400 otherwise). */
export function requireReleaseId(action: Record<string, unknown>, index: number): string {
  const value = action.releaseId
  if (typeof value !== 'string' || !releaseIdPattern.test(value)) {
    throw badRequest(
      `Action at index ${index}: "releaseId" must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(value)})`,
    )
  }
  return value
}
