import type {Context} from 'hono'
import {notFound} from '../lake/index.ts'

/** `v2025-02-19`, `v1`, `vX`: an API version as @sanity/client writes it, and nothing else. */
const versionPattern = /^v(?:\d{4}-\d{2}-\d{2}|1|X)$/
/** Sanity's dataset names: lowercase letters, digits, `_` and `-`, at most 64 characters. */
const datasetPattern = /^[a-z0-9][a-z0-9_-]{0,63}$/

/**
 * The version and dataset of a proxied path, checked before they are put into the upstream URL.
 * Hono decodes path parameters, so `v1%2Fusers%2Fme%23` arrives as `v1/users/me#`: taken as is,
 * it carried the session's credential to `/users/me` (security review 2, finding 3). A part that
 * is not a plain version or dataset name is a 404 and nothing is forwarded.
 */
export function upstreamPathParts(c: Context): {version: string; dataset: string} {
  const version = c.req.param('version') ?? ''
  const dataset = c.req.param('dataset') ?? ''
  if (!versionPattern.test(version) || !datasetPattern.test(dataset))
    throw notFound('Only the query and live events routes are proxied')
  return {version, dataset}
}
