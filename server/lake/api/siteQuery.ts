import {LakeError} from '../errors.ts'
import {asked, type AnswerQuery, type Asker} from './query.ts'

/** What the query API sends the site, parsed: the result and the sync tags it depends on. */
export interface SiteQueryResponse {
  result: unknown
  syncTags: string[]
  ms: number
}

/** The site's read of its own process's lake (server/render): no socket between them. */
export type SiteQuery = (
  query: string,
  params: Record<string, unknown>,
) => Promise<SiteQueryResponse>

/** A refusal as @sanity/client reports one (its `statusCode`), so the renderer tells them apart. */
export class SiteQueryError extends Error {
  readonly statusCode: number
  readonly details: Record<string, unknown>

  constructor(error: LakeError) {
    super(error.message)
    this.name = 'SiteQueryError'
    this.statusCode = error.status
    this.details = {type: error.type, ...error.details}
  }
}

/** The site's credential as the query route knows it (api/internal.ts), without its header. */
const site: Asker = {
  perspective: 'published',
  anonymous: true,
  trusted: true,
  client: 'site',
  preview: false,
}

/**
 * The site's reads when the lake runs in the same process: the query route's own answer
 * (query.ts `queryAnswerer`) to what the site's client would send with the lake's internal
 * credential (published documents only, the trusted lane, the shared response cache, the same
 * sync tags), minus the loopback request. That request and its answer cost a search's page ~1 ms
 * of the main thread (docs/search.md, "Speed"). A site process (LAKE_URL) and hosted mode read
 * over HTTP as before.
 */
export function siteQuery(answer: AnswerQuery): SiteQuery {
  return async (query, params) => {
    try {
      const {body} = await answer(asked(query, params, site.perspective, false), site)
      // The body is the query route's own JSON, written by it: its shape is this one.
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- see above
      return JSON.parse(body.text()) as SiteQueryResponse
    } catch (error) {
      throw error instanceof LakeError ? new SiteQueryError(error) : error
    }
  }
}
